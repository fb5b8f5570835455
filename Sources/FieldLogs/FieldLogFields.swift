import Reports

/// The fields of one field-log line, read by name and type; what is never read is an unknown field.
struct FieldLogFields {
  let members: [(String, JSONValue)]
  let path: String
  let line: Int
  /// The names looked up (a handful a line: a list beats a set).
  private var read: [String] = []

  init(members: [(String, JSONValue)], path: String, line: Int) {
    self.members = members
    self.path = path
    self.line = line
  }

  /// The names of the fields nothing read.
  var unread: [String] { members.map(\.0).filter { !read.contains($0) } }
}

extension JSONValue {
  /// Whether it is `null` (``JSONValue``'s `==` compares written text: too slow a line).
  var isNull: Bool {
    if case .null = self { return true }
    return false
  }
}

extension FieldLogFields {

  private mutating func value(_ name: String, required: Bool, expected: String) throws(FieldLogError) -> JSONValue? {
    read.append(name)
    guard let value = members.first(where: { $0.0 == name })?.1, !value.isNull else {
      if required { throw FieldLogError(file: path, line: line, "missing \"\(name)\": expected \(expected)") }
      return nil
    }
    return value
  }

  private func wrong(_ name: String, _ value: JSONValue, expected: String) -> FieldLogError {
    FieldLogError(file: path, line: line, "\"\(name)\": expected \(expected), got \(value.text)")
  }

  /// A string field; a whole number is read as its digits unless `stringOnly` (the format's names: `event`).
  mutating func text(_ name: String, required: Bool = false, stringOnly: Bool = false) throws(FieldLogError)
    -> String?
  {
    let expected = stringOnly ? "a string" : "a string (or a whole number)"
    guard let value = try value(name, required: required, expected: expected) else { return nil }
    switch value {
    case .string(let text): return text
    case .integer(let number) where !stringOnly: return String(number)
    default: throw wrong(name, value, expected: expected)
    }
  }

  /// The phone's id: a string (or a whole number) that is not empty.
  mutating func device() throws(FieldLogError) -> String {
    let device = try text("device", required: true)!
    guard !device.isEmpty else {
      throw FieldLogError(file: path, line: line, "\"device\": expected the phone's id, got an empty string")
    }
    return device
  }

  mutating func time(_ name: String, required: Bool = false) throws(FieldLogError) -> FieldLogTime? {
    let expected = "an ISO-8601 time with a UTC offset, e.g. \"2026-01-05T08:30:00+01:00\""
    guard let value = try value(name, required: required, expected: expected) else { return nil }
    guard case .string(let text) = value, let time = FieldLogTime(text: text) else {
      if case .string(let text) = value, let offset = FieldLogTime.offsetOutOfRange(text) {
        throw FieldLogError(
          file: path, line: line, "\"\(name)\": the UTC offset \(offset) of \(value.text) is outside -14:00...+14:00")
      }
      throw wrong(name, value, expected: expected)
    }
    return time
  }

  mutating func number(_ name: String, in range: ClosedRange<Double>) throws(FieldLogError) -> Double? {
    let expected = "a number in \(range.lowerBound)...\(range.upperBound)"
    guard let value = try value(name, required: false, expected: expected) else { return nil }
    let number: Double
    switch value {
    case .integer(let whole): number = Double(whole)
    case .number(let real): number = real
    default: throw wrong(name, value, expected: expected)
    }
    guard range.contains(number) else { throw wrong(name, value, expected: expected) }
    return number
  }

  mutating func flag(_ name: String) throws(FieldLogError) -> Bool? {
    guard let value = try value(name, required: false, expected: "true or false") else { return nil }
    guard case .bool(let flag) = value else { throw wrong(name, value, expected: "true or false") }
    return flag
  }

  /// The event named `name` with its fields; nil for a name the format does not know.
  static func event(_ name: String, _ fields: inout FieldLogFields) throws(FieldLogError) -> FieldLogEvent? {
    switch name {
    case "timeline":
      let kind = try fields.text("kind", required: true)!
      let policy = try fields.text("policy")
      if let policy, !["after", "at_end", "never"].contains(policy) {
        throw FieldLogError(
          file: fields.path, line: fields.line, "\"policy\": expected after, at_end or never, got \"\(policy)\"")
      }
      return .timeline(
        kind: kind, family: try fields.text("family"), policy: policy, next: try fields.time("next"),
        entries: try fields.number("entries", in: 0...1e9).map { Int($0) })
    case "reload_call": return .reloadCall(kind: try fields.text("kind"))
    case "app_foreground": return .appForeground(fromWidget: try fields.flag("from_widget"))
    case "app_background": return .appBackground
    case "background_refresh": return .backgroundRefresh
    case "activity_update": return .activityUpdate(activity: try fields.text("activity"))
    case "battery":
      return .battery(
        level: try fields.number("level", in: 0...1), lowPower: try fields.flag("low_power"),
        charging: try fields.flag("charging"))
    default: return FieldLogEvent.deliveries[name]
    }
  }
}
