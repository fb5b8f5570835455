import Reports

/// One chart of report.html: a Vega-Lite specification with its data inline, and how many marks each
/// named layer must draw (one per data point for bars, rules and points, one per series for lines), which
/// the browser test checks against the rendered SVG.
struct Chart: Sendable {
  let id: String
  let title: String
  /// A sentence under the chart: what it shows and how it was computed.
  let caption: String
  let spec: JSONValue
  /// Layer name -> marks it must draw (`NAME_marks` groups in the SVG).
  let marks: [(layer: String, count: Int)]
  /// Whether it takes the page's whole width (the device timeline) rather than a column.
  var wide = false
}

/// Building blocks of the Vega-Lite specifications.
enum VegaLite {
  static let schema = "https://vega.github.io/schema/vega-lite/v6.json"

  /// A chart as wide as its container (so it fits a 1280 px window and a narrow one).
  static func unit(height: Int = 260, values: [JSONValue], layers: [JSONValue]) -> JSONValue {
    .object([
      ("$schema", .string(schema)),
      ("width", .string("container")),
      ("height", .integer(height)),
      ("autosize", .object([("type", .string("fit-x")), ("contains", .string("padding"))])),
      ("data", .object([("values", .array(values))])),
      ("layer", .array(layers)),
    ])
  }

  /// The hour of day 0-23 on x, every hour shown even when it has no data.
  static let hourOfDay = field(
    "hour", "ordinal", title: "hour of day (local time)",
    extra: [("scale", .object([("domain", .array((0..<24).map { .integer($0) }))]))])

  /// A layer named `name`: its marks are `NAME_marks` in the SVG. `values` gives it data of its own.
  static func layer(
    _ name: String, mark: JSONValue, encoding: [(String, JSONValue)], values: [JSONValue]? = nil
  ) -> JSONValue {
    var members: [(String, JSONValue)] = [("name", .string(name))]
    if let values { members.append(("data", .object([("values", .array(values))]))) }
    return .object(members + [("mark", mark), ("encoding", .object(encoding))])
  }

  /// A mark with a tooltip from its encoding.
  static func mark(_ type: String, _ extra: [(String, JSONValue)] = []) -> JSONValue {
    .object([("type", .string(type)), ("tooltip", .bool(true))] + extra)
  }

  static func field(
    _ name: String, _ type: String, title: String, extra: [(String, JSONValue)] = []
  ) -> JSONValue {
    .object([("field", .string(name)), ("type", .string(type)), ("title", .string(title))] + extra)
  }

  static func row(_ members: [(String, JSONValue)]) -> JSONValue { .object(members) }
}
