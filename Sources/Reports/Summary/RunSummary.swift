import Results
import SimulationEngine
import Statistics
import WidgetModel

/// The headline metrics of a run: one value per replication and subject (widget instance, the widget push
/// topic, a Live Activity kind), summarised over replications with the mean and a 95% confidence interval
/// that stays within the values the metric can take (``MetricInterval``).
public struct RunSummary: Sendable {
  /// One metric of one subject, over replications.
  public struct Row: Sendable {
    public let metric: String
    /// The widget instance label, `widget_push`, or the Live Activity id.
    public let widget: String
    public let unit: String
    /// What the figure is per: `phone`, `phone_with_widget`, `view`, `fleet`, `run`... (see docs/reports.md).
    public let per: String
    /// What the subject is: `widget`, `control`, `activity`, `channel`, `device`, `app`, `fleet`,
    /// `fleet_group`, `server` or `event` (the `subject_kind` column).
    public let subjectKind: String
    /// What one replication's value is (the `statistic` column).
    public let statistic: SummaryStatistic
    public let values: RunningStatistics
    /// A per-second figure of a fleet estimated from a sample: the first replication's interval.
    var sampled: SampledInterval? = nil
    /// False for a figure the sample cannot estimate (``Metric/estimable``): no value, no interval.
    public var estimable = true

    /// The 95% confidence interval of the mean, within the values the metric can take (see
    /// ``MetricInterval``); nil with a single replication and for extremes, but for an estimate from a
    /// sample of the fleet, which has its own.
    public var interval: MetricInterval? {
      guard estimable else { return nil }
      if values.count == 1, let sampled { return MetricInterval(sampled) }
      return MetricInterval.of(values, range: QuantityRange(unit: unit), statistic: statistic)
    }

    /// The half-width of the estimate's interval that the sample's size accounts for (nil: not estimated,
    /// or more than one replication).
    public var samplingHalfWidth: Double? { values.count == 1 ? sampled?.samplingHalfWidth : nil }
  }

  /// What a metric is computed for.
  public struct Subjects: Sendable {
    /// Widget instance labels, in instance order.
    public var instances: [String]
    /// What each instance is: `widget` or `control` (the `subject_kind` column).
    public var instanceKinds: [String]
    /// Whether each instance has a reload budget (a control only with `system.controls.budget`).
    public var instanceBudgeted: [Bool]
    /// Whether any widget kind sends WidgetKit pushes (then `widget_push` rows appear).
    public var widgetPush: Bool
    /// Live Activity ids, in scenario order.
    public var activities: [String]
    /// Real devices per simulated device, to scale server load.
    public var serverScale: Double
    /// Whether server load is kept per second (fleets): then the provisioning rows appear, per stream.
    public var perSecond = false
    /// Fleet-wide event ids, in scenario order.
    public var events: [String] = []
    /// Per instance: whether its kind's data changes in bursts (then the `..._in_burst` rows appear).
    public var burstInstances: [Bool] = []
    /// The UTC minutes (from day 0 00:00 UTC) the run's devices cover: the measured days, widened by the
    /// largest time-zone offsets `fleet.timezone_offset` can draw. Nil: every minute the server load keeps.
    public var utcMinutes: Range<Int>?
    /// The UTC date of day 0 (`start_date`).
    public var startDate = CalendarDate.defaultStart
    /// Names of the groups of phones with the same widgets (``DeviceGroups``), in group order.
    public var deviceGroups: [String] = []

    public init(
      instances: [String], instanceKinds: [String]? = nil, widgetPush: Bool = false, activities: [String] = [],
      serverScale: Double = 1
    ) {
      self.serverScale = serverScale
      self.instances = instances
      self.instanceKinds = instanceKinds ?? instances.map { _ in WidgetSurface.widget.rawValue }
      instanceBudgeted = instances.map { _ in true }
      self.widgetPush = widgetPush
      self.activities = activities
    }

    public init(_ configuration: ScenarioConfiguration) {
      self.init(
        instances: configuration.instances.map(\.label),
        instanceKinds: configuration.instances.map { configuration.widgets[$0.widgetIndex].surface.rawValue },
        widgetPush: configuration.widgets.contains { $0.data.pushes.contains(.widget) },
        activities: configuration.liveActivities.map(\.id), serverScale: configuration.fleet.scale)
      instanceBudgeted = configuration.instances.map {
        configuration.widgets[$0.widgetIndex].surface == .widget || configuration.system.controlBudgetPerDay != nil
      }
      perSecond = configuration.keepsSecondLoad
      events = configuration.events.map(\.id)
      let eventBurstKinds = Set(configuration.events.filter { $0.followUps > 0 }.flatMap(\.dataKeys))
      burstInstances = configuration.instances.map {
        let widget = configuration.widgets[$0.widgetIndex]
        return (widget.data.scheduled?.isBursty ?? false) || eventBurstKinds.contains(widget.dataKey)
      }
      startDate = configuration.startDate
      let groups = DeviceGroups(configuration)
      deviceGroups = (0..<groups.count).map { groups.label($0, widgetIDs: configuration.widgets.map(\.id)) }
      // A device whose clock runs `offset` ahead of UTC covers UTC minutes -offset ..< days - offset.
      let limit = ServerLoad.maximumOffset.seconds
      let offsets = configuration.fleet.clockOffset?.support ?? 0...0
      let earliest = Swift.min(Swift.max(offsets.lowerBound, -limit), limit)
      let latest = Swift.min(Swift.max(offsets.upperBound, -limit), limit)
      utcMinutes = -Int((latest / 60).rounded(.up))..<(configuration.days * 1_440 - Int((earliest / 60).rounded(.down)))
    }

    /// (label, kind, metrics each with the index it is computed for) in report order.
    var all: [(label: String, kind: String, metrics: [(metric: Metric, index: Int)])] {
      let energy = RunSummary.energyMetrics
      func with(_ metrics: [Metric], _ index: Int) -> [(metric: Metric, index: Int)] { metrics.map { ($0, index) } }
      // A widget's per-phone figures are per phone that has it (a fleet may install it on some).
      let ofWidget = (RunSummary.instanceMetrics + energy).map { $0.per == "phone" ? $0.per("phone_with_widget") : $0 }
      var subjects = instances.enumerated().map { index, label in
        let bursts = index < burstInstances.count && burstInstances[index] ? RunSummary.burstMetrics : []
        let installed = RunSummary.installedMetrics(scale: serverScale)
        let kind = index < instanceKinds.count ? instanceKinds[index] : WidgetSurface.widget.rawValue
        return (label, kind, with(ofWidget + bursts + installed, index))
      }
      subjects.append(("device", "device", with(RunSummary.deviceMetrics, instances.count)))
      if widgetPush {
        subjects.append(
          ("widget_push", "channel", with(RunSummary.pushMetrics, 0) + with(energy, instances.count + 1)))
      }
      subjects += activities.enumerated().map {
        (
          $0.element, "activity",
          with(RunSummary.activityMetrics, $0.offset) + with(energy, instances.count + 2 + $0.offset)
        )
      }
      subjects.append(
        ("app", "app", with(RunSummary.appMetrics, 0) + with(energy, instances.count + 2 + activities.count)))
      subjects.append(("fleet", "fleet", with(RunSummary.fleetMetrics, 0)))
      subjects += deviceGroups.enumerated().map {
        ("fleet:\($0.element)", "fleet_group", with(RunSummary.deviceGroupMetrics, $0.offset))
      }
      subjects.append(("server", "server", with(RunSummary.serverMetrics(scale: serverScale), 0)))
      if perSecond {
        // In `ReplicationResult.provisioning` order: what the servers receive, what they send, every stream.
        for direction in ServerDirection.allCases {
          subjects.append(
            (
              direction.name, "server",
              with(
                RunSummary.provisioningMetrics(bytes: direction == .received, sampled: serverScale > 1),
                direction.rawValue)
            ))
        }
        let streams = ServerDirection.allCases.count
        for stream in ServerStream.allCases {
          subjects.append(
            (
              stream.name, "server",
              with(
                RunSummary.provisioningMetrics(bytes: stream.keepsBytes, sampled: serverScale > 1, stream: true),
                streams + stream.rawValue)
            ))
        }
      }
      subjects += events.enumerated().map { ($0.element, "event", with(RunSummary.eventMetrics, $0.offset)) }
      return subjects
    }
  }

  public let rows: [Row]

  /// The summary of results all in hand (in replication order).
  public init(results: [ReplicationResult], subjects: Subjects) {
    var accumulator = Accumulator(subjects: subjects)
    for result in results { accumulator.add(result) }
    self = accumulator.summary
  }

  init(rows: [Row]) {
    self.rows = rows
  }

  /// Builds a summary one replication at a time, keeping only a running mean and variance per row.
  public struct Accumulator: Sendable {
    let subjects: [(label: String, kind: String, metrics: [(metric: Metric, index: Int)])]
    /// One per (subject, metric), in row order.
    var values: [RunningStatistics]
    /// The first replication's intervals of estimated figures (``noteIntervals(of:)``), in row order.
    var sampled: [SampledInterval?]

    public init(subjects: Subjects) {
      self.subjects = subjects.all
      values = Array(repeating: RunningStatistics(), count: self.subjects.reduce(0) { $0 + $1.metrics.count })
      sampled = Array(repeating: nil, count: values.count)
      rowKinds = self.subjects.flatMap { subject in subject.metrics.map { _ in subject.kind } }
    }

    public mutating func add(_ result: ReplicationResult) {
      noteIntervals(of: result)
      add(numbers(of: result))
    }

    /// Keeps the intervals of the figures `result` estimates from a sample of its fleet, when it is the
    /// first replication (a summary of several gives the t interval over them instead).
    public mutating func noteIntervals(of result: ReplicationResult) {
      note(intervals(of: result))
    }

    /// Keeps `intervals` (``intervals(of:)`` of a replication) when no replication was added yet.
    public mutating func note(_ intervals: [SampledInterval?]) {
      guard values.first?.count ?? 0 == 0, intervals.count == sampled.count else { return }
      sampled = intervals
    }

    /// The intervals of the figures `result` estimates from a sample of its fleet, in row order (nil for
    /// every other row), on any thread.
    public func intervals(of result: ReplicationResult) -> [SampledInterval?] {
      var list: [SampledInterval?] = []
      list.reserveCapacity(sampled.count)
      for subject in subjects.indices {
        for position in subjects[subject].metrics.indices {
          list.append(
            subjects[subject].metrics[position].metric.sampled?(result, subjects[subject].metrics[position].index))
        }
      }
      return list
    }

    /// Adds one replication's values, as ``numbers(of:)`` gives them (in row order).
    public mutating func add(_ replication: [Double]) {
      precondition(replication.count == values.count, "\(replication.count) values for \(values.count) rows")
      for (row, value) in replication.enumerated() {
        // A group of phones may have no phone in a replication: that replication says nothing about it.
        if value.isNaN && rowKinds[row] == "fleet_group" { continue }
        values[row].add(value)
      }
    }

    /// The subject kind of every row, in row order.
    let rowKinds: [String]

    /// (metric, subject) of every row, in row order.
    public var rowKeys: [(metric: String, widget: String)] {
      rowLabels.map { ($0.metric, $0.widget) }
    }

    /// (metric, subject, unit) of every row, in row order.
    public var rowLabels: [(metric: String, widget: String, unit: String)] {
      subjects.flatMap { subject in subject.metrics.map { ($0.metric.name, subject.label, $0.metric.unit) } }
    }

    /// Every metric's value for one replication, in row order, with its metric, subject and unit, and the
    /// interval of a figure estimated from a sample of the fleet.
    public func values(of result: ReplicationResult) -> [MetricValue] {
      let numbers = numbers(of: result)
      var list: [MetricValue] = []
      list.reserveCapacity(numbers.count)
      for subject in subjects.indices {
        for position in subjects[subject].metrics.indices {
          let metric = subjects[subject].metrics[position]
          list.append(
            MetricValue(
              metric: metric.metric.name, widget: subjects[subject].label, unit: metric.metric.unit,
              value: numbers[list.count], sampled: metric.metric.sampled?(result, metric.index)))
        }
      }
      return list
    }

    /// Every metric's value for one replication, in row order (``rowKeys`` names them): what a run's
    /// replications add up and write, without a metric's, subject's and unit's strings retained for each
    /// (three each, some 500 atomic reference counts a replication).
    public func numbers(of result: ReplicationResult) -> [Double] {
      var list: [Double] = []
      list.reserveCapacity(values.count)
      var figures: ReplicationFigures?
      // By position, read in place: a subject or a metric copied out of its array retains its strings and
      // closures (about a thousand times a replication).
      for subject in subjects.indices {
        for position in subjects[subject].metrics.indices {
          let index = subjects[subject].metrics[position].index
          if let derived = subjects[subject].metrics[position].metric.derived {
            if figures == nil { figures = ReplicationFigures(result) }
            list.append(derived(result, index, figures!))
          } else {
            list.append(subjects[subject].metrics[position].metric.value(result, index))
          }
        }
      }
      return list
    }

    public var summary: RunSummary {
      var rows: [Row] = []
      for subject in subjects {
        for (metric, _) in subject.metrics {
          rows.append(
            Row(
              metric: metric.name, widget: subject.label, unit: metric.unit, per: metric.per,
              subjectKind: subject.kind, statistic: metric.statistic, values: values[rows.count],
              sampled: sampled[rows.count], estimable: metric.estimable))
        }
      }
      return RunSummary(rows: rows)
    }
  }

  /// The row for a metric and subject, if present.
  public func row(_ metric: String, widget: String) -> Row? {
    rows.first { $0.metric == metric && $0.widget == widget }
  }

  struct Metric: Sendable {
    let name: String
    let unit: String
    /// The denominator: what one value is per (the `per` column).
    var per: String
    /// What one replication's value is (the `statistic` column).
    let statistic: SummaryStatistic
    let value: @Sendable (ReplicationResult, Int) -> Double
    /// For a metric of the per-minute server load or of energy totals: its value from the replication's
    /// ``ReplicationFigures``, which ``Accumulator/numbers(of:)`` derives once for all such metrics (``value``
    /// derives its own).
    let derived: (@Sendable (ReplicationResult, Int, ReplicationFigures) -> Double)?
    /// For a per-second figure a fleet's sample estimates: its interval (nil when counted).
    var sampled: (@Sendable (ReplicationResult, Int) -> SampledInterval?)? = nil
    /// False for a figure a sample of the fleet cannot estimate to the standard of the others (one stream's
    /// busiest second or p99): its value is blank and its `ci_method` `not_estimable`.
    var estimable = true

    init(
      name: String, unit: String, per: String = "phone", statistic: SummaryStatistic = .mean,
      value: @escaping @Sendable (ReplicationResult, Int) -> Double
    ) {
      self.name = name
      self.unit = unit
      self.per = per
      self.statistic = statistic
      self.value = value
      derived = nil
    }

    private init(
      name: String, unit: String, per: String, statistic: SummaryStatistic,
      derived: @escaping @Sendable (ReplicationResult, Int, ReplicationFigures) -> Double
    ) {
      self.name = name
      self.unit = unit
      self.per = per
      self.statistic = statistic
      value = { result, index in derived(result, index, ReplicationFigures(result)) }
      self.derived = derived
    }

    /// A metric of the per-minute server load.
    static func ofServerLoad(
      name: String, unit: String, per: String, statistic: SummaryStatistic = .mean,
      _ value: @escaping @Sendable (ReplicationResult, ServerMinuteTotals) -> Double
    ) -> Metric {
      Metric(name: name, unit: unit, per: per, statistic: statistic) { result, _, figures in
        value(result, figures.minutes)
      }
    }

    /// A metric of the app's wakes over the run, by `channel * AppWakeOutcome.count + outcome`.
    static func ofAppWakes(
      name: String, unit: String, _ value: @escaping @Sendable (ReplicationResult, [Int]) -> Double
    ) -> Metric {
      Metric(name: name, unit: unit, per: "phone", statistic: .mean) { result, _, figures in
        value(result, figures.appWakes)
      }
    }

    /// A metric of a subject's energy totals (the index is the energy subject).
    static func ofEnergy(
      name: String, unit: String, per: String = "phone", statistic: SummaryStatistic = .mean,
      _ value: @escaping @Sendable (ReplicationResult, Int, EnergyTotals) -> Double
    ) -> Metric {
      Metric(name: name, unit: unit, per: per, statistic: statistic) { result, subject, figures in
        value(result, subject, figures.energy)
      }
    }

    /// The same metric per something else.
    func per(_ denominator: String) -> Metric {
      var copy = self
      copy.per = denominator
      return copy
    }
  }
}
