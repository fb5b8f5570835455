import SimulationEngine
import Yams

/// A node of the scenario document with its key path, so every error can say where it is.
struct YAMLValue {
  let node: Node
  let path: String
  let source: ScenarioSource

  /// An error about this value.
  func error(_ message: String) -> ScenarioError {
    let mark = node.mark
    return ScenarioError(
      file: source.file, line: mark?.line, column: mark?.column, keyPath: path, message: message,
      override: source.override(for: path))
  }

  /// Notes a warning about this value: allowed, but probably not what the user meant.
  func warn(_ message: String) {
    source.warnings.withLock { $0.append(error("warning: " + message)) }
  }

  /// The value as the user wrote it, for messages.
  var shown: String {
    switch node {
    case .scalar(let scalar): "\"\(scalar.string)\""
    case .mapping: "a mapping"
    case .sequence: "a list"
    case .alias: "an alias"
    }
  }

  func mapping() throws(ScenarioError) -> MappingReader {
    guard case .mapping(let mapping) = node else { throw error("expected a mapping of keys to values, got \(shown)") }
    return try MappingReader(mapping: mapping, value: self)
  }

  func sequence() throws(ScenarioError) -> [Node] {
    guard case .sequence(let sequence) = node else { throw error("expected a list, got \(shown)") }
    return Array(sequence)
  }

  /// A plain scalar's text; null and empty are errors.
  func scalarText() throws(ScenarioError) -> String {
    guard case .scalar(let scalar) = node else { throw error("expected a single value, got \(shown)") }
    if scalar.tag == .implicit && scalar.style == .plain && ["", "~", "null", "Null", "NULL"].contains(scalar.string) {
      throw error("expected a value, got nothing")
    }
    return scalar.string
  }

  func string() throws(ScenarioError) -> String {
    let text = try scalarText()
    guard !text.trimmingWhitespace.isEmpty else { throw error("expected a non-empty string") }
    return text
  }

  func bool() throws(ScenarioError) -> Bool {
    switch try scalarText() {
    case "true", "True", "TRUE": return true
    case "false", "False", "FALSE": return false
    default: throw error("expected true or false, got \(shown)")
    }
  }

  func integer(in range: ClosedRange<Int>) throws(ScenarioError) -> Int {
    let text = try scalarText().trimmingWhitespace
    guard let value = Int(text) else {
      if let real = Double(text), real.rounded() == real, real.isFinite {
        throw error("must be between \(range.lowerBound) and \(range.upperBound), got \(text)")
      }
      throw error("expected a whole number, got \(shown)")
    }
    guard range.contains(value) else {
      throw error("must be between \(range.lowerBound) and \(range.upperBound), got \(value)")
    }
    return value
  }

  /// A whole number from 1 up to the scenario's limit for `count` (see ``ScenarioLimits``).
  func count(_ count: ScenarioLimits.Count) throws(ScenarioError) -> Int {
    let limits = source.limits
    let text = try scalarText().trimmingWhitespace
    if let value = Int(text) {
      if value > limits.maximum(count) { throw error(limits.message(count, value: text)) }
      return try integer(in: 1...limits.maximum(count))
    }
    if let real = Double(text), real.isFinite, real.rounded() == real, real > Double(limits.maximum(count)) {
      throw error(limits.message(count, value: text))
    }
    return try integer(in: 1...limits.maximum(count))
  }

  func unsigned64() throws(ScenarioError) -> UInt64 {
    let text = try scalarText().trimmingWhitespace
    guard let value = UInt64(text) else { throw error("expected a whole number from 0 to \(UInt64.max), got \(shown)") }
    return value
  }

  /// A finite number, checked against `range` when given.
  func number(in range: ClosedRange<Double>? = nil, exclusiveLower: Bool = false) throws(ScenarioError) -> Double {
    let text = try scalarText().trimmingWhitespace
    guard let value = Double(text), value.isFinite else { throw error("expected a number, got \(shown)") }
    try check(value, in: range, exclusiveLower: exclusiveLower, shown: text)
    return value
  }

  func probability() throws(ScenarioError) -> Double {
    try number(in: 0...1)
  }

  /// A duration with a unit, in seconds.
  func seconds(in range: ClosedRange<Double>? = nil, exclusiveLower: Bool = false) throws(ScenarioError) -> Double {
    let text = try scalarText()
    guard let value = Units.seconds(text) else {
      throw error("expected a duration with a unit (us, ms, s, min or m, h, d), e.g. 15m or 15min; got \(shown)")
    }
    try check(value, in: range, exclusiveLower: exclusiveLower, shown: text) { SimDuration(seconds: $0).description }
    return value
  }

  func duration(in range: ClosedRange<Double>? = nil, exclusiveLower: Bool = false) throws(ScenarioError) -> SimDuration
  {
    let duration = SimDuration(seconds: try seconds(in: range, exclusiveLower: exclusiveLower))
    // The clock counts whole microseconds: a positive duration below half of one would be 0 (an `after` of
    // 0 would reload forever at one instant).
    if exclusiveLower && duration <= SimDuration(seconds: range?.lowerBound ?? 0) {
      throw error("must be at least 1us (the simulation clock's resolution), got \(shown)")
    }
    return duration
  }

  /// A size with a unit, in bytes.
  func bytes(in range: ClosedRange<Double>? = nil) throws(ScenarioError) -> Double {
    let text = try scalarText()
    guard let value = Units.bytes(text) else {
      throw error("expected a size with a unit (B, KB, MB, GB, KiB, MiB, GiB), e.g. 30KB; got \(shown)")
    }
    try check(value, in: range, exclusiveLower: false, shown: text)
    return value
  }

  /// A data rate with a unit, in bits per second; must be positive.
  func bitsPerSecond() throws(ScenarioError) -> Double {
    let text = try scalarText()
    guard let value = Units.bitsPerSecond(text), value > 0 else {
      throw error("expected a positive data rate with a unit (bps, kbps, Mbps, Gbps), e.g. 10Mbps; got \(shown)")
    }
    return value
  }

  /// A power with a unit, in watts, checked against `range`.
  func watts(in range: ClosedRange<Double>) throws(ScenarioError) -> Double {
    let text = try scalarText()
    guard let value = Units.watts(text) else {
      throw error("expected a power with a unit (mW, W, kW), e.g. 500mW; got \(shown)")
    }
    try check(value, in: range, exclusiveLower: false, shown: text)
    return value
  }

  /// An energy with a unit, in joules; must be positive.
  func joules() throws(ScenarioError) -> Double {
    let text = try scalarText()
    guard let value = Units.joules(text), value > 0, value <= 1e12 else {
      throw error("expected a positive energy with a unit (Wh, mWh, mAh, J, kJ), e.g. 12.98Wh; got \(shown)")
    }
    return value
  }

  /// A fraction written as a percentage (`20%`) or a number in [0, 1].
  func fraction() throws(ScenarioError) -> Double {
    let text = try scalarText()
    guard let value = Units.fraction(text), value.isFinite else {
      throw error("expected a percentage such as 20% (or a number from 0 to 1), got \(shown)")
    }
    try check(value, in: 0...1, exclusiveLower: false, shown: text)
    return value
  }

  func timeOfDay() throws(ScenarioError) -> TimeOfDayValue {
    let text = try scalarText()
    guard let (hours, minutes) = Units.timeOfDay(text) else {
      throw error("expected a time of day as \"HH:MM\" (24-hour clock), got \(shown)")
    }
    return TimeOfDayValue(hours: hours, minutes: minutes)
  }

  /// One of an enumeration's raw values.
  func choice<Choice: RawRepresentable & CaseIterable>(_ type: Choice.Type) throws(ScenarioError) -> Choice
  where Choice.RawValue == String {
    let text = try scalarText().trimmingWhitespace
    if let value = Choice(rawValue: text) { return value }
    let names = Choice.allCases.map(\.rawValue)
    throw error(
      "expected one of \(names.joined(separator: ", ")), got \(shown)\(DidYouMean.hint(for: text, among: names))")
  }

  private func check(
    _ value: Double, in range: ClosedRange<Double>?, exclusiveLower: Bool, shown: String,
    format: (Double) -> String = YAMLValue.plain
  ) throws(ScenarioError) {
    guard let range else { return }
    if exclusiveLower && value <= range.lowerBound {
      throw error("must be greater than \(format(range.lowerBound)), got \(shown)")
    }
    if !range.contains(value) {
      if range.upperBound == .infinity || range.upperBound == .greatestFiniteMagnitude {
        throw error("must be at least \(format(range.lowerBound)), got \(shown)")
      }
      throw error("must be between \(format(range.lowerBound)) and \(format(range.upperBound)), got \(shown)")
    }
  }

  private static func plain(_ value: Double) -> String {
    value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
  }
}

/// A parsed time of day (kept apart from the model's type so parsing has no preconditions to trip).
struct TimeOfDayValue: Equatable {
  let hours: Int
  let minutes: Int
}
