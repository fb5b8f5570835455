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

  /// The most work (device-days x widget instances x replications) a run may ask for without
  /// `--allow-large`: about 4 hours on the 2-core reference machine.
  public static let standardWidgetDays = 1e9

  /// Runs above this much work print their estimate before they start.
  public static let announcedWidgetDays = 1e7

  /// Widget-days simulated per second per core on the reference machine (fleet benchmark: 100,000 devices x
  /// 30 days x 3 widgets in 124.5 s on 2 cores), for the rough time in the work estimate.
  public static let widgetDaysPerCoreSecond = 36_000.0

  /// The largest value allowed for `count`.
  func maximum(_ count: Count) -> Int { allowLarge ? count.large : count.standard }

  /// The message for `value` above the limit of `count`.
  func message(_ count: Count, value: String) -> String {
    if allowLarge {
      return "\(value) \(count.unit) is above the hard limit of \(count.large), which --allow-large does not lift"
    }
    return "\(value) \(count.unit) is above the limit of \(count.standard) "
      + "(pass --allow-large to allow up to \(count.large))"
  }
}

/// How much simulating a scenario is: what the work estimate shows and the work limit checks.
public struct WorkEstimate: Sendable, Equatable {
  public let devices: Int
  public let days: Int
  public let instances: Int
  public let replications: Int

  public init(devices: Int, days: Int, instances: Int, replications: Int) {
    self.devices = devices
    self.days = days
    self.instances = instances
    self.replications = replications
  }

  /// The work of a whole run of `configuration`.
  public init(_ configuration: ScenarioConfiguration) {
    self.init(
      devices: configuration.fleet.devices, days: configuration.simulatedDays, instances: configuration.instances.count,
      replications: configuration.replications)
  }

  /// Device-days x widget instances x replications (a Double: the product can pass Int.max).
  public var widgetDays: Double { Double(devices) * Double(days) * Double(max(1, instances)) * Double(replications) }

  /// "100000 devices x 30 days x 3 widget instances x 1 replications = 9.0e6 widget-days".
  public var description: String {
    "\(devices) devices x \(days) days x \(instances) widget instances x \(replications) replications = "
      + "\(WorkEstimate.scientific(widgetDays)) widget-days"
  }

  /// "about 2 h 5 min on 2 cores at the reference machine's rate" (a rough guide: machines differ).
  public func duration(cores: Int) -> String {
    WorkEstimate.duration(widgetDays: widgetDays, cores: cores)
  }

  /// How long `widgetDays` of work takes on `cores` cores, as ``duration(cores:)`` says it.
  public static func duration(widgetDays: Double, cores: Int) -> String {
    let seconds = widgetDays / (ScenarioLimits.widgetDaysPerCoreSecond * Double(max(1, cores)))
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
