/// Reading back the JSON widgetsim writes (a sweep's manifest.json for its report): objects, arrays,
/// strings, numbers, booleans and null, without Foundation.
extension JSONValue {
  public struct ParseError: Error, CustomStringConvertible, Sendable {
    public let offset: Int
    public let message: String
    public var description: String { "at byte \(offset): \(message)" }
  }

  /// The document in `text`; throws on anything that is not one JSON value (trailing text included).
  public static func parse(_ text: String) throws(ParseError) -> JSONValue {
    try parse(bytes: Array(text.utf8))
  }

  /// The document in `bytes` (UTF-8), as ``parse(_:)`` reads text.
  public static func parse(bytes: [UInt8]) throws(ParseError) -> JSONValue {
    var reader = Reader(bytes: bytes)
    let value = try reader.value(depth: 0)
    reader.skipSpace()
    guard reader.position == reader.bytes.count else { throw reader.error("unexpected text after the value") }
    return value
  }

  /// The member named `key` of an object; nil for anything else.
  public subscript(_ key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.0 == key }?.1
  }

  /// The text of a string (and the written form of a number or boolean); nil for the rest.
  public var scalarText: String? {
    switch self {
    case .string(let text): text
    case .integer(let value): "\(value)"
    case .number(let value): "\(value)"
    case .bool(let value): value ? "true" : "false"
    default: nil
    }
  }

  /// The elements of an array; empty for anything else.
  public var elements: [JSONValue] {
    guard case .array(let elements) = self else { return [] }
    return elements
  }

  private struct Reader {
    let bytes: [UInt8]
    var position = 0
    /// Deeper nesting is refused: widgetsim writes three levels at most.
    static let maximumDepth = 64

    func error(_ message: String) -> ParseError { ParseError(offset: position, message: message) }

    mutating func skipSpace() {
      while position < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) { position += 1 }
    }

    mutating func expect(_ literal: String) throws(ParseError) {
      for byte in literal.utf8 {
        guard position < bytes.count, bytes[position] == byte else { throw error("expected \(literal)") }
        position += 1
      }
    }

    mutating func value(depth: Int) throws(ParseError) -> JSONValue {
      guard depth < Reader.maximumDepth else { throw error("nested too deeply") }
      skipSpace()
      guard position < bytes.count else { throw error("unexpected end") }
      switch bytes[position] {
      case UInt8(ascii: "{"):
        position += 1
        var members: [(String, JSONValue)] = []
        skipSpace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
          position += 1
          return .object(members)
        }
        while true {
          skipSpace()
          let key = try string()
          skipSpace()
          try expect(":")
          members.append((key, try value(depth: depth + 1)))
          skipSpace()
          guard position < bytes.count else { throw error("unexpected end in an object") }
          position += 1
          if bytes[position - 1] == UInt8(ascii: "}") { return .object(members) }
          guard bytes[position - 1] == UInt8(ascii: ",") else { throw error("expected , or }") }
        }
      case UInt8(ascii: "["):
        position += 1
        var elements: [JSONValue] = []
        skipSpace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
          position += 1
          return .array(elements)
        }
        while true {
          elements.append(try value(depth: depth + 1))
          skipSpace()
          guard position < bytes.count else { throw error("unexpected end in an array") }
          position += 1
          if bytes[position - 1] == UInt8(ascii: "]") { return .array(elements) }
          guard bytes[position - 1] == UInt8(ascii: ",") else { throw error("expected , or ]") }
        }
      case UInt8(ascii: "\""): return .string(try string())
      case UInt8(ascii: "t"):
        try expect("true")
        return .bool(true)
      case UInt8(ascii: "f"):
        try expect("false")
        return .bool(false)
      case UInt8(ascii: "n"):
        try expect("null")
        return .null
      default: return try number()
      }
    }

    mutating func number() throws(ParseError) -> JSONValue {
      let start = position
      while position < bytes.count, "+-.eE0123456789".utf8.contains(bytes[position]) { position += 1 }
      let text = String(decoding: bytes[start..<position], as: UTF8.self)
      if let integer = Int(text) { return .integer(integer) }
      // A seed past Int.max: kept as its digits, which a Double would round.
      if UInt64(text) != nil { return .string(text) }
      guard !text.isEmpty, let number = Double(text) else { throw error("expected a value") }
      return .number(number)
    }

    mutating func string() throws(ParseError) -> String {
      guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw error("expected a string") }
      position += 1
      var scalars = String.UnicodeScalarView()
      var run: [UInt8] = []
      func flush() {
        scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
        run.removeAll()
      }
      while position < bytes.count {
        let byte = bytes[position]
        position += 1
        if byte == UInt8(ascii: "\"") {
          flush()
          return String(scalars)
        }
        guard byte == UInt8(ascii: "\\") else {
          run.append(byte)
          continue
        }
        flush()
        guard position < bytes.count else { break }
        let escape = bytes[position]
        position += 1
        switch escape {
        case UInt8(ascii: "n"): scalars.append("\n")
        case UInt8(ascii: "r"): scalars.append("\r")
        case UInt8(ascii: "t"): scalars.append("\t")
        case UInt8(ascii: "b"): scalars.append("\u{8}")
        case UInt8(ascii: "f"): scalars.append("\u{C}")
        case UInt8(ascii: "u"):
          guard position + 4 <= bytes.count,
            let code = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16)
          else { throw error("bad \\u escape") }
          position += 4
          scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
        default: scalars.append(Unicode.Scalar(escape))
        }
      }
      throw error("unterminated string")
    }
  }
}
