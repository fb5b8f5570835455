import SimulationEngine
import WidgetModel

/// How large a scenario may be. Sizes past the standard limits are almost always typing mistakes (days: 1e9)
/// or runs that would not finish this week; `--allow-large` lifts them to the hard limits, which keep memory
/// and simulated time safely bounded. Every limit is listed in Scenarios/README.md ("Limits").
public struct ScenarioLimits: Sendable, Equatable {
  /// Whether the large limits apply (`--allow-large`).
  public var allowLarge: Bool
  /// Whether a sweep file's `base` may name a file outside the sweep file's folder (`--allow-outside-base`).
  public var allowOutsideBase: Bool

  public init(allowLarge: Bool = false, allowOutsideBase: Bool = false) {
    self.allowLarge = allowLarge
    self.allowOutsideBase = allowOutsideBase
  }

  public static let standard = ScenarioLimits()
  public static let large = ScenarioLimits(allowLarge: true)

  /// One count with a standard and a hard maximum.
  struct Count: Sendable {
    /// What is counted, for messages ("days").
    let unit: String
    let standard: Int
    let large: Int
  }

  /// 10 years, or 100 with `--allow-large` (simulated time stays below 2^62 µs by far).
  static let days = Count(unit: "days", standard: 3_650, large: 36_500)
  static let replications = Count(unit: "replications", standard: 100_000, large: 10_000_000)
  static let devices = Count(unit: "devices", standard: 10_000_000, large: 1_000_000_000)
  /// Times a replication's fleet-wide event schedule holds, follow-ups included (``ScenarioRates``): it is
  /// drawn whole before the run, at about 25 bytes a time while it is built (250 MB, or 2.5 GB).
  static let fleetEventOccurrences = Count(
    unit: "fleet event times (follow-ups included) in one replication", standard: 10_000_000, large: 100_000_000)

  /// The most burst updates one device may hold pending at once, on average (``ScenarioRates``): a quarter
  /// of the event set's capacity (``EventSet/maximumPending``, 2^24 - 1), leaving room for the chance peaks
  /// of a Poisson process and for every other pending event. Not lifted by `--allow-large`.
  public static let pendingBurstUpdates = Double(EventSet.maximumPending / 4)

  /// Events per device-day from the rates alone (``ScenarioRates``) above which the work estimate takes that
  /// count rather than simulating a device for two days: the short simulation then would cost more than a
  /// few tens of milliseconds, and the rates are already most of the work.
  public static let measuredEventsPerDeviceDay = 100_000.0

  /// The most work a run may ask for without `--allow-large`, in simulated events (devices x days x
  /// replications x the events one device handles a day, measured: see ``WorkEstimate``): about 3.5 hours
  /// on the 2-core reference machine.
  public static let standardEvents = 1e11

  /// Runs above this much work print their estimate before they start (about 2 minutes on 2 cores).
  public static let announcedEvents = 1e9

  /// Events simulated per second per core on the reference machine, for the rough time in the work
  /// estimate: the model benchmark's median (`widgetsim bench --only model_events`) is 4-5 million; fleets
  /// with per-second server load run somewhat slower.
  public static let eventsPerCoreSecond = 4e6

  /// The largest value allowed for `count`.
  func maximum(_ count: Count) -> Int { allowLarge ? count.large : count.standard }

  /// Why `replications` replications are refused (`--max-replications` is held to the limit that
  /// `replications` is), or nil when they are allowed.
  public func refusal(replications: Int) -> String? {
    replications > maximum(ScenarioLimits.replications)
      ? message(ScenarioLimits.replications, value: String(replications)) : nil
  }

  /// The message for `value` above the limit of `count`.
  func message(_ count: Count, value: String) -> String {
    if allowLarge {
      return "\(value) \(count.unit) is above the hard limit of \(count.large), which --allow-large does not lift"
    }
    return "\(value) \(count.unit) is above the limit of \(count.standard) "
      + "(pass --allow-large to allow up to \(count.large))"
  }
}

/// How much simulating a scenario is: what the work estimate shows and the work limit checks. The size
/// (devices, days, widget instances, replications) times the events one device handles a day, measured on
/// the scenario itself by simulating one device for up to two days: a 1-minute `.after` costs some 15 times
/// what a 15-minute one does, and the estimate says so.
public struct WorkEstimate: Sendable, Equatable {
  public let devices: Int
  public let days: Int
  public let instances: Int
  public let replications: Int
  /// Events one device handles per simulated day (measured, or counted from the rates: see ``init(_:)``).
  public let eventsPerDeviceDay: Double
  /// Whether ``eventsPerDeviceDay`` was measured by simulating a device, rather than counted from the rates.
  public let measured: Bool

  public init(
    devices: Int, days: Int, instances: Int, replications: Int, eventsPerDeviceDay: Double, measured: Bool = true
  ) {
    self.devices = devices
    self.days = days
    self.instances = instances
    self.replications = replications
    self.eventsPerDeviceDay = eventsPerDeviceDay
    self.measured = measured
  }

  /// The work of a whole run of `configuration`. Its events per device-day are measured by a short
  /// simulation of one device (a millisecond or so) when the rates alone (``ScenarioRates``) come to at most
  /// ``ScenarioLimits/measuredEventsPerDeviceDay``; above that, the rates' count stands, computed in
  /// microseconds.
  public init(_ configuration: ScenarioConfiguration, rates: ScenarioRates? = nil) {
    let counted = (rates ?? ScenarioRates(configuration)).eventsPerDeviceDay
    let measured = counted <= ScenarioLimits.measuredEventsPerDeviceDay
    self.init(
      devices: configuration.fleet.devices, days: configuration.simulatedDays, instances: configuration.instances.count,
      replications: configuration.replications,
      eventsPerDeviceDay: measured ? ScenarioRunner.eventsPerDeviceDay(configuration) : counted, measured: measured)
  }

  /// Why this much work is refused under `limits` (above ``ScenarioLimits/standardEvents`` without
  /// `--allow-large`), or nil when it is allowed.
  public func refusal(_ limits: ScenarioLimits) -> String? {
    guard !limits.allowLarge && events > ScenarioLimits.standardEvents else { return nil }
    return "the run is too large: \(description), above the limit of "
      + "\(WorkEstimate.scientific(ScenarioLimits.standardEvents)) events "
      + "(\(duration(cores: 2))); pass --allow-large to run it anyway"
  }

  /// This estimate for `replications` replications.
  public func with(replications: Int) -> WorkEstimate {
    WorkEstimate(
      devices: devices, days: days, instances: instances, replications: replications,
      eventsPerDeviceDay: eventsPerDeviceDay, measured: measured)
  }

  /// Device-days x widget instances x replications (a Double: the product can pass Int.max).
  public var widgetDays: Double { Double(devices) * Double(days) * Double(max(1, instances)) * Double(replications) }

  /// Events per widget instance and simulated day.
  public var eventsPerWidgetDay: Double { eventsPerDeviceDay / Double(max(1, instances)) }

  /// Events the whole run handles, about.
  public var events: Double { Double(devices) * Double(days) * Double(replications) * eventsPerDeviceDay }

  /// "100000 devices x 30 days x 3 widget instances x 1 replications = 9.0e6 widget-days x 240 events
  /// (measured) = 2.2e9 events".
  /// "1 device", "2 devices": a count and its noun, singular for one (`plural` when it is not noun + "s").
  public static func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
  }

  public var description: String {
    "\(WorkEstimate.counted(devices, "device")) x \(WorkEstimate.counted(days, "day")) x "
      + "\(WorkEstimate.counted(instances, "widget instance")) x \(WorkEstimate.counted(replications, "replication")) = "
      + "\(WorkEstimate.scientific(widgetDays)) widget-days x \(eventsPerWidgetDay < 1e15 ? "\(Int(eventsPerWidgetDay.rounded()))" : WorkEstimate.scientific(eventsPerWidgetDay)) "
      + "events each (\(measured ? "measured on one device" : "counted from its rates")) = "
      + "\(WorkEstimate.scientific(events)) events"
  }

  /// "about 2 h 5 min on 2 cores at the reference machine's rate" (a rough guide: machines differ).
  public func duration(cores: Int) -> String {
    WorkEstimate.duration(events: events, cores: cores)
  }

  /// How long `events` take on `cores` cores, as ``duration(cores:)`` says it.
  public static func duration(events: Double, cores: Int) -> String {
    let seconds = events / (ScenarioLimits.eventsPerCoreSecond * Double(max(1, cores)))
    let text: String
    if seconds < 60 {
      text = "under a minute"
    } else if seconds < 3_600 {
      text = "about \(Int((seconds / 60).rounded())) min"
    } else if seconds < 172_800 {
      let minutes = Int((seconds / 60).rounded())
      text = "about \(minutes / 60) h \(minutes % 60) min"
    } else {
      text = "about \(Int((seconds / 86_400).rounded())) days"
    }
    return "\(text) on \(cores) cores at the reference machine's rate"
  }

  /// `value` as "9.0e6" (two significant digits).
  public static func scientific(_ value: Double) -> String {
    guard value.isFinite else { return "more than 1e308" }
    guard value >= 10_000 else { return value == value.rounded() ? "\(Int(value))" : "\(value)" }
    var exponent = 0
    var mantissa = value
    while mantissa >= 10 {
      mantissa /= 10
      exponent += 1
    }
    var tenths = Int((mantissa * 10).rounded())
    if tenths >= 100 {
      tenths /= 10
      exponent += 1
    }
    return "\(tenths / 10).\(tenths % 10)e\(exponent)"
  }
}
