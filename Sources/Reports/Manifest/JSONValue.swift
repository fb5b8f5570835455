/// A JSON document built in code, written with its keys in the order given (manifest.json, the chart
/// specifications of report.html). Numbers that are not finite are written as `null`.
public indirect enum JSONValue: Sendable, Equatable {
  case object([(String, JSONValue)])
  case array([JSONValue])
  case string(String)
  case number(Double)
  case integer(Int)
  case bool(Bool)
  case null

  public static func == (left: JSONValue, right: JSONValue) -> Bool { left.text == right.text }

  /// Compact JSON text.
  public var text: String {
    var result = ""
    write(to: &result, htmlSafe: false)
    return result
  }

  /// Compact JSON text with `<`, `>` and `&` escaped, to sit inside an HTML `<script>` element.
  public var htmlSafeText: String {
    var result = ""
    write(to: &result, htmlSafe: true)
    return result
  }

  func write(to result: inout String, htmlSafe: Bool) {
    switch self {
    case .object(let members):
      result += "{"
      for (index, (key, value)) in members.enumerated() {
        if index > 0 { result += "," }
        result += JSONValue.quoted(key, htmlSafe: htmlSafe) + ":"
        value.write(to: &result, htmlSafe: htmlSafe)
      }
      result += "}"
    case .array(let elements):
      result += "["
      for (index, element) in elements.enumerated() {
        if index > 0 { result += "," }
        element.write(to: &result, htmlSafe: htmlSafe)
      }
      result += "]"
    case .string(let string): result += JSONValue.quoted(string, htmlSafe: htmlSafe)
    case .number(let number): result += number.isFinite ? "\(number)" : "null"
    case .integer(let integer): result += "\(integer)"
    case .bool(let bool): result += bool ? "true" : "false"
    case .null: result += "null"
    }
  }

  /// A JSON string literal; with `htmlSafe`, `<`, `>` and `&` are escaped too.
  public static func quoted(_ text: String, htmlSafe: Bool = false) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case "<" where htmlSafe: result += "\\u003c"
      case ">" where htmlSafe: result += "\\u003e"
      case "&" where htmlSafe: result += "\\u0026"
      default:
        if scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 {
          let hex = String(scalar.value, radix: 16)
          result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }
}
