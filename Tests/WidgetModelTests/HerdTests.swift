import Fleets
import SimulationEngine
import Testing

@testable import Results
@testable import WidgetModel

/// The herds a model can invent (every phone waking at one minute, every widget added at midnight) and
/// what removes them: varied sleep times, install times, a warm-up left out of the statistics.
@Suite("Fleet herds and warm-up")
struct HerdTests {
  /// One widget polling every 15 minutes with a fetch, defaults for everything the system does.
  static func polling(days: Int) -> ScenarioConfiguration {
    var widget = ModelFixtures.widget("news", policy: .after(.minutes(15)))
    widget.build.fetchProbability = 1
    var configuration = ScenarioConfiguration(name: "herd", days: days, seed: 7, replications: 1, widgets: [widget])
    configuration.user.appOpensPerDay = 0
    return configuration
  }

  @Test("a warm-up leaves its days out: the measured days equal the same days of a run without one")
  func warmupDropsFirstDays() {
    var whole = HerdTests.polling(days: 3)
    whole.user.appOpensPerDay = 2
    var warmed = whole
    warmed.days = 2
    warmed.warmupDays = 1
    let full = ScenarioRunner.runReplication(whole, replication: 0, trace: true)
    let measured = ScenarioRunner.runReplication(warmed, replication: 0, trace: true)
    #expect(measured.days == 2)
    // The same trajectory: every hourly figure of days 1 and 2 is the same, moved to days 0 and 1.
    #expect(measured.fingerprint == full.fingerprint)
    for day in 0..<2 {
      for hour in 0..<24 {
        for cause in ReloadCause.allCases {
          for outcome in ReloadOutcome.allCases {
            #expect(
              measured.reloadCount(day: day, hour: hour, instance: 0, cause: cause, outcome: outcome)
                == full.reloadCount(day: day + 1, hour: hour, instance: 0, cause: cause, outcome: outcome))
          }
        }
        #expect(
          measured.budgetRemaining(day: day, hour: hour, instance: 0)
            == full.budgetRemaining(day: day + 1, hour: hour, instance: 0))
        #expect(measured.stateOfCharge[day * 24 + hour] == full.stateOfCharge[(day + 1) * 24 + hour])
      }
    }
    #expect(measured.serverLoad.minuteCount == full.serverLoad.minuteCount - 1_440)
    // The margin before the measured first day is the warm-up's (a device on UTC has nothing there).
    for slot in -ServerLoad.firstMinute..<measured.serverLoad.minuteCount {
      #expect(
        measured.serverLoad.requests(slot: slot, source: .widgetFetch)
          == full.serverLoad.requests(slot: slot + 1_440, source: .widgetFetch))
    }
    // Totals and the trace hold only the measured days, on the measured clock.
    let day = SimDuration.day
    let fullTrace = full.trace ?? []
    let laterTrace = fullTrace.filter { $0.time >= .zero + day }
    #expect((measured.trace ?? []).map(\.time) == laterTrace.map { $0.time - day })
    #expect(measured.builds[0] == laterTrace.count { $0.outcome != .stuck })
    #expect(measured.total(instance: 0) < full.total(instance: 0))
    #expect(measured.staleness[0].views < full.staleness[0].views)
    let laterOpens = (full.appTrace ?? []).filter { $0.time >= .zero + day }.count
    #expect((measured.appTrace ?? []).count == laterOpens)
    #expect(measured.perDevice.reloadsPerDay.mean == Double(laterTrace.count) / 2)
  }

  @Test("widgets added at a drawn install time: nothing is seen or reloaded before it")
  func installTime() {
    var configuration = HerdTests.polling(days: 2)
    configuration.fleet.installTime = try! .constant(10 * 3_600 + 17 * 60)
    let result = ScenarioRunner.runReplication(configuration, replication: 0, trace: true)
    let trace = result.trace ?? []
    let installed = SimTime.zero + .minutes(10 * 60 + 17)
    #expect(trace.first?.cause == .widgetAdded)
    #expect(trace.first?.requestTime == installed)
    #expect(trace.allSatisfy { $0.requestTime >= installed })
    for hour in 0..<10 {
      #expect(result.total(instance: 0) > 0)
      #expect(
        ReloadCause.allCases.allSatisfy { cause in
          ReloadOutcome.allCases.allSatisfy {
            result.reloadCount(day: 0, hour: hour, instance: 0, cause: cause, outcome: $0) == 0
          }
        })
    }
    // Views before the install find no widget: fewer than in a run with the widget from midnight.
    configuration.fleet.installTime = nil
    let fromMidnight = ScenarioRunner.runReplication(configuration, replication: 0)
    #expect(result.staleness[0].views < fromMidnight.staleness[0].views)
  }

  @Test("varied sleep shifts each device's window, wrapped around midnight")
  func sleepVariation() {
    var configuration = HerdTests.polling(days: 1)
    DeviceParameter.sleepFromShiftSeconds.apply(-3_600, to: &configuration)
    DeviceParameter.sleepToShiftSeconds.apply(18 * 3_600, to: &configuration)
    #expect(configuration.user.sleep.from == TimeOfDay(hours: 22, minutes: 30))
    #expect(configuration.user.sleep.to == TimeOfDay(hours: 1, minutes: 0))
    DeviceParameter.sleepFromShiftSeconds.apply(.infinity, to: &configuration)
    #expect(configuration.user.sleep.from == TimeOfDay(hours: 22, minutes: 30))
  }

  /// 2,000 phones in the four continental US time zones polling every 15 minutes.
  static func usFleet(varied: Bool) -> ScenarioConfiguration {
    var configuration = HerdTests.polling(days: 2)
    configuration.fleet = FleetConfiguration(
      devices: 1_000, represents: 2_000_000,
      clockOffset: try! .empirical(values: [-8, -7, -6, -5].map { $0 * 3_600 }, weights: nil))
    if !varied { configuration.fleet.spread = .pinned }
    if varied {
      configuration.warmupDays = 1
      configuration.fleet.installTime = try! .uniform(low: 0, high: 86_400)
      configuration.fleet.variations = [
        DeviceVariation(parameter: .sleepFromShiftSeconds, distribution: try! .normal(mean: 0, sd: 3_600)),
        DeviceVariation(parameter: .sleepToShiftSeconds, distribution: try! .normal(mean: 0, sd: 3_600)),
      ]
    }
    return configuration
  }

  /// The busiest minute's fetches over the 99th percentile minute's, over the run's own UTC minutes.
  static func peakOverP99(_ result: ReplicationResult) -> Double {
    let first = -ServerLoad.firstMinute
    let minutes = (first..<(first + result.days * 1_440)).map {
      result.serverLoad.requests(slot: $0, source: .widgetFetch)
    }.sorted()
    let p99 = Double(minutes[Int((Double(minutes.count - 1) * 0.99).rounded())])
    return Double(minutes.last!) / p99
  }

  @Test("varied sleep and install times with a warm-up: the peak minute is at most 1.5x the p99 minute")
  func noInventedHerd() {
    let varied = FleetRunner.run(HerdTests.usFleet(varied: true), replication: 0, jobs: 2).result
    let ratio = HerdTests.peakOverP99(varied)
    #expect(ratio <= 1.5, "peak / p99 minute = \(ratio)")
    #expect(varied.perSecond.herds.isEmpty, "\(varied.perSecond.herds)")
    // The same fleet with one sleep window and every widget added at midnight (spreads pinned) has the herd,
    // and the herd rule names the pinned times that make it.
    let herd = FleetRunner.run(HerdTests.usFleet(varied: false), replication: 0, jobs: 2).result
    #expect(HerdTests.peakOverP99(herd) > 2, "peak / p99 minute = \(HerdTests.peakOverP99(herd))")
    let fetches = herd.perSecond.herds.first { $0.source == .widgetFetch }
    #expect(fetches != nil, "\(herd.perSecond.herds)")
    #expect(fetches?.explanation?.contains("pinned") == true, "\(String(describing: fetches))")
  }

  @Test("the fleet's default spreads alone, without vary, install_time or a warm-up: no herd, peak minute near p99")
  func defaultSpreadsRemoveTheHerd() {
    var configuration = HerdTests.usFleet(varied: false)
    configuration.fleet.spread = .standard
    let result = FleetRunner.run(configuration, replication: 0, jobs: 2).result
    #expect(result.perSecond.herds.isEmpty, "\(result.perSecond.herds)")
    // Day 0 still starts from a state no phone is in (full budgets): a looser bound than with a warm-up.
    let ratio = HerdTests.peakOverP99(result)
    #expect(ratio <= 2, "peak / p99 minute = \(ratio)")
  }

  @Test("default spreads: each phone's sleep window and charger move together, push-to-start times do not")
  func spreadsPerPhone() throws {
    var configuration = HerdTests.polling(days: 2)
    configuration.fleet = FleetConfiguration(devices: 400)
    configuration.liveActivities = [
      LiveActivityConfiguration(id: "order", startsPerDay: 0, startsAt: [TimeOfDay(hours: 12, minutes: 0)]),
      LiveActivityConfiguration(
        id: "kickoff", startsPerDay: 0, startsAt: [TimeOfDay(hours: 18, minutes: 55)], start: .pushToStart),
    ]
    var wakes: [Double] = []
    for device in 0..<400 {
      let drawn = FleetDevice.draw(device, of: configuration, replication: 0)
      let mine = drawn.configuration
      let wake = mine.user.sleep.to.sinceMidnight.seconds
      wakes.append(wake)
      #expect(mine.device.charging?.window.to == mine.user.sleep.to)
      #expect(mine.device.charging?.window.from == mine.user.sleep.from)
      #expect(mine.liveActivities[1].startsAt == [TimeOfDay(hours: 18, minutes: 55)])
      #expect(drawn.installTime >= .zero && drawn.installTime < .hours(24))
    }
    // Wake-ups: normal around 07:00 with sd 45 min. The sample mean is within 4 standard errors.
    let mean: Double = wakes.reduce(0, +) / Double(wakes.count)
    let squares: Double = wakes.map { (wake: Double) -> Double in (wake - mean) * (wake - mean) }.reduce(0, +)
    let sd: Double = (squares / Double(wakes.count - 1)).squareRoot()
    let meanBound: Double = 4 * 2_700 / 20
    #expect(abs(mean - 7 * 3_600) < meanBound, "mean wake \(mean) s")
    // The sample sd of 400 normal draws is within 15% of the true one (about 4 standard errors of it).
    #expect(abs(sd - 2_700) < 0.15 * 2_700, "sd \(sd) s")
    // Pinned: every phone alike.
    configuration.fleet.spread = .pinned
    let pinned = FleetDevice.draw(7, of: configuration, replication: 0)
    #expect(pinned.configuration.user.sleep.to == configuration.user.sleep.to)
    #expect(pinned.installTime == .zero)
    #expect(pinned.configuration.liveActivities[0].startsAt == [TimeOfDay(hours: 12, minutes: 0)])
  }
}
