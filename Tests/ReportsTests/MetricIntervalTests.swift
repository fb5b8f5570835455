import CGSL
import Fleets
import ScenarioFiles
import SimulationEngine
import Statistics
import TestSupport
import Testing
import WidgetModel

@testable import Reports

@Suite("Intervals that respect their quantity")
struct MetricIntervalTests {
  @Test("a fraction's interval is the t interval of its logit, mapped back: a known answer at 2 replications")
  func logitKnownAnswer() throws {
    // Values 0.2 and 0.6: mean 0.4, standard error 0.2, t(0.975, 1) = 12.7062; the t interval would be
    // [-2.14, 2.94]. Expected bounds computed independently: expit(logit(0.4) -+ 12.7062 * 0.2 / 0.24).
    let interval = try #require(
      MetricInterval.of(RunningStatistics([0.2, 0.6]), range: QuantityRange(unit: "fraction"), statistic: .mean))
    #expect(interval.method == .logitT)
    #expect(abs(interval.low - 1.6802449854540133e-05) < 1e-12)
    #expect(abs(interval.high - 0.999962195281842) < 1e-12)
    // An hour of day lies in [0, 24]: 22:00 and 23:30.
    let hours = try #require(
      MetricInterval.of(RunningStatistics([22, 23.5]), range: QuantityRange(unit: "hour of day"), statistic: .mean))
    #expect(abs(hours.low - 0.13960099255931147) < 1e-9)
    #expect(abs(hours.high - 23.99957609201333) < 1e-9)
  }

  @Test("non-negative quantities are bounded at 0; extremes and single replications get no interval, peaks one")
  func boundsAndExtremes() throws {
    let wide = try #require(
      MetricInterval.of(RunningStatistics([0, 10]), range: QuantityRange(unit: "s"), statistic: .mean))
    let t = ConfidenceInterval.studentQuantile(probability: 0.975, degreesOfFreedom: 1)
    #expect(wide.low == 0 && abs(wide.high - (5 + t * 5)) < 1e-9 && wide.method == .t)
    #expect(MetricInterval.of(RunningStatistics([1, 2, 3]), range: .nonNegative, statistic: .max) == nil)
    // A busiest second: each replication's is an independent draw of the fleet's, so their mean has a t interval.
    let peak = try #require(MetricInterval.of(RunningStatistics([1, 2, 3]), range: .nonNegative, statistic: .peak))
    let t2 = ConfidenceInterval.studentQuantile(probability: 0.975, degreesOfFreedom: 2)
    #expect(peak.low == 0 && abs(peak.high - (2 + t2 / 3.0.squareRoot())) < 1e-9)
    #expect(MetricInterval.of(RunningStatistics([1]), range: .nonNegative, statistic: .mean) == nil)
    // Every replication at an end of the range: the interval is that point.
    let none = try #require(
      MetricInterval.of(RunningStatistics([0, 0, 0]), range: QuantityRange(unit: "fraction"), statistic: .mean))
    #expect(none.low == 0 && none.high == 0)
  }

  @Test("logit intervals cover a known mean about 95% of the time (10 replications of a Beta(2, 5) share)")
  func coverage() throws {
    // Beta(2, 5) has mean 2/7. 4,000 trials of 10 replications each, fixed seed (0.951 covered). The delta
    // method is an approximation: we allow 0.01 for it plus 3 binomial standard errors of the estimate
    // (sqrt(0.95 * 0.05 / 4000) = 0.0034) either side of 0.95.
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: 23))
    let truth = 2.0 / 7
    let trials = 4_000
    var covered = 0
    for _ in 0..<trials {
      let values = (0..<10).map { _ in gsl_ran_beta(stream.gslGenerator, 2, 5) }
      let interval = try #require(
        MetricInterval.of(RunningStatistics(values), range: QuantityRange(unit: "fraction"), statistic: .mean))
      #expect(interval.low >= 0 && interval.high <= 1)
      if interval.low <= truth, truth <= interval.high { covered += 1 }
    }
    let coverage = Double(covered) / Double(trials)
    let allowance = 0.01 + 3 * (0.95 * 0.05 / Double(trials)).squareRoot()
    #expect(abs(coverage - 0.95) <= allowance, "coverage \(coverage)")
  }

  @Test("summary.csv's subject_kind and statistic columns: what each row is about, agreeing with the names")
  func subjectKindAndStatistic() throws {
    let configuration = try exampleScenario(
      "fleet-breaking-news", overrides: ["days=1", "replications=2", "fleet.devices=20"])
    let summary = RunSummary(results: ScenarioRunner.run(configuration), subjects: RunSummary.Subjects(configuration))
    let kinds = Dictionary(summary.rows.map { ($0.widget, $0.subjectKind) }, uniquingKeysWith: { first, _ in first })
    #expect(kinds["device"] == "device" && kinds["fleet"] == "fleet" && kinds["server"] == "server")
    #expect(kinds["app"] == "app" && kinds["received"] == "server" && kinds["sent"] == "server")
    #expect(kinds["total"] == nil, "no row adds what the servers receive and what they send")
    for instance in configuration.instances { #expect(kinds[instance.label] == "widget") }
    for activity in configuration.liveActivities { #expect(kinds[activity.id] == "activity") }
    for event in configuration.events { #expect(kinds[event.id] == "event") }
    if configuration.widgets.contains(where: { $0.data.pushes.contains(.widget) }) {
      #expect(kinds["widget_push"] == "channel")
    }
    for row in summary.rows {
      let name = row.metric.replacing("_in_burst", with: "")
      #expect(row.statistic == MetricIntervalTests.statistic(named: name), "\(name) of \(row.widget)")
    }
    let csv = summary.csv()
    #expect(csv.contains("\nstaleness_p95,") && csv.contains(",view,widget,p95,t\n"))
    #expect(csv.contains(",view,widget,max,none\n"))
  }

  @Test("a fleet that installs widgets on some phones: per group of phones with the same widgets, the same figures")
  func deviceGroups() throws {
    // deals 0.5, courier 0.3, loyalty 0.4 of phones; orders on all: 8 groups.
    let configuration = try exampleScenario(
      "fleet-capacity", overrides: ["days=1", "replications=2", "fleet.devices=80", "warmup_days=0"])
    let groups = DeviceGroups(configuration)
    #expect(groups.count == 8 && !groups.byCount)
    #expect(groups.label(0, widgetIDs: configuration.widgets.map(\.id)) == "none")
    #expect(groups.label(7, widgetIDs: configuration.widgets.map(\.id)) == "deals+courier+loyalty")
    let results = ScenarioRunner.run(configuration)
    let summary = RunSummary(results: results, subjects: RunSummary.Subjects(configuration))
    let labels = (0..<8).map { "fleet:" + groups.label($0, widgetIDs: configuration.widgets.map(\.id)) }
    for label in labels {
      #expect(summary.rows.contains { $0.widget == label && $0.subjectKind == "fleet_group" })
    }
    for result in results {
      // Every phone is in exactly one group; the groups' sums make the fleet's.
      #expect(result.perDeviceGroup.map(\.reloadsPerDay.count).reduce(0, +) == 80)
      let sums = result.perDeviceGroup.map { Double($0.joulesPerDay.count) * $0.joulesPerDay.mean }
      let fleet = Double(result.perDevice.joulesPerDay.count) * result.perDevice.joulesPerDay.mean
      #expect(abs(sums.filter { !$0.isNaN }.reduce(0, +) - fleet) < 1e-6 * fleet)
    }
    // Each group's mean is the mean over its phones, drawn one by one (devices.csv's figures).
    let (result, devices) = FleetRunner.run(configuration, replication: 0, jobs: 2, perDevice: true)
    for group in 0..<groups.count {
      let members = devices.filter {
        groups.group(installed: FleetDevice.draw($0.device, of: configuration, replication: 0).installed) == group
      }
      #expect(result.perDeviceGroup[group].reloadsPerDay.count == members.count)
      guard !members.isEmpty else { continue }
      let expected = members.map(\.reloadsPerDay).reduce(0, +) / Double(members.count)
      #expect(abs(result.perDeviceGroup[group].reloadsPerDay.mean - expected) < 1e-5, "group \(labels[group])")
    }
    // One phone, or widgets on every phone: no groups.
    #expect(DeviceGroups(try exampleScenario("quickstart")).count == 0)
  }

  @Test("a group of phones absent from a replication leaves that replication out of its rows, not the run's")
  func emptyGroupReplication() throws {
    let configuration = try exampleScenario("fleet-capacity", overrides: ["days=1", "fleet.devices=20"])
    var accumulator = RunSummary.Accumulator(subjects: RunSummary.Subjects(configuration))
    let kinds = accumulator.rowKinds
    let keys = accumulator.rowKeys
    for replication in 0..<3 {
      // Every row 1, 2, 3; the group rows have no value in the second replication; so has a widget row.
      accumulator.add(
        keys.indices.map { row in
          let missing = replication == 1 && (kinds[row] == "fleet_group" || keys[row].metric == "staleness_max")
          return missing ? .nan : Double(replication + 1)
        })
    }
    let summary = accumulator.summary
    let group = try #require(summary.rows.first { $0.subjectKind == "fleet_group" })
    #expect(group.values.count == 2 && group.values.mean == 2)
    let widget = try #require(summary.row("staleness_max", widget: "orders"))
    #expect(widget.values.count == 3 && widget.values.mean.isNaN, "other rows keep a missing value visible")
    #expect(summary.csv().contains("\n\(group.metric),\(group.widget),2.0000,"))
  }

  /// The statistic a metric's name ends in (or starts with), as users read the names.
  static func statistic(named given: String) -> SummaryStatistic {
    // `raw_` figures (a fleet sample's own, scaled) are the statistic of the figure they stand beside.
    let name = given.hasPrefix("raw_") ? String(given.dropFirst(4)) : given
    // Names that say their statistic inside: the per-minute server rows and the median delivery.
    if name.contains("_busiest_minute") { return .peak }
    if name.hasSuffix("_p99_minute") { return .p99 }
    if name.contains("_median_") { return .p50 }
    for statistic in [SummaryStatistic.p50, .p95, .p99, .max, .peak, .mean] where name.hasSuffix("_\(statistic)") {
      return statistic
    }
    for statistic in [SummaryStatistic.p99, .peak, .min] where name.hasPrefix("\(statistic)_") { return statistic }
    if name.hasPrefix("installed_") || name == "group_devices" { return .total }
    if name.contains("_last_") || name.contains("_fanout_") { return .max }
    return .mean
  }

  @Test("every example scenario at 2 replications: no fraction's interval leaves [0, 1], no bound is negative")
  func examplesStayInRange() throws {
    let folder = Repository.path("Scenarios")
    let names = try TestFiles.list(folder).filter { $0.hasSuffix(".yaml") && !$0.hasPrefix("sweep-") }
    #expect(names.count >= 15)
    for name in names {
      var overrides = ["replications=2", "days=2"]
      let base = try exampleScenario(String(name.dropLast(5)), overrides: overrides)
      if base.fleet.devices > 40 { overrides.append("fleet.devices=40") }
      let configuration = try exampleScenario(String(name.dropLast(5)), overrides: overrides)
      let summary = RunSummary(results: ScenarioRunner.run(configuration), subjects: RunSummary.Subjects(configuration))
      for row in summary.rows {
        guard let interval = row.interval else {
          #expect(row.statistic.isExtreme || row.values.count < 2 || !row.values.mean.isFinite)
          continue
        }
        #expect(interval.low >= 0, "\(name): \(row.metric) of \(row.widget) low \(interval.low)")
        if row.unit == "fraction" {
          #expect(interval.high <= 1, "\(name): \(row.metric) of \(row.widget) high \(interval.high)")
        }
        #expect(!row.statistic.isExtreme, "\(name): \(row.metric) is an extreme but has an interval")
      }
    }
  }
}
