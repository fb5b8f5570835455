import Testing

@testable import Reports

/// JSONValue.parse: reading back what JSONValue writes (a sweep's manifest.json).
@Suite("Reading JSON back")
struct JSONReadingTests {
  @Test("what JSONValue writes reads back to the same value: nesting, escapes, numbers, literals")
  func roundTrip() throws {
    let value = JSONValue.object([
      ("text", .string("a \"quoted\" \\ line\nwith\ttabs, é and \u{1} and \u{2028}")),
      ("list", .array([.integer(-3), .number(0.25), .number(1e21), .bool(true), .bool(false), .null])),
      ("empty", .object([])), ("none", .array([])),
      ("nested", .array([.array([.string("15m"), .string("1")]), .object([("k", .string("v"))])])),
    ])
    let parsed = try JSONValue.parse(value.text)
    #expect(parsed == value)
    #expect(parsed["nested"]?.elements.first?.elements.compactMap(\.scalarText) == ["15m", "1"])
    #expect(parsed["text"]?.scalarText == "a \"quoted\" \\ line\nwith\ttabs, é and \u{1} and \u{2028}")
    #expect(
      try JSONValue.parse(" {\n  \"seed\": 18446744073709551615\n}\n")["seed"]?.scalarText == "18446744073709551615")
  }

  @Test("anything that is not one JSON value is an error with its offset")
  func malformed() {
    for text in ["", "{", "[1,]", "{\"a\" 1}", "\"open", "[1] 2", "tru", "{\"a\": \"\\u12\"}", "-"] {
      #expect(throws: JSONValue.ParseError.self, "\(text)") { try JSONValue.parse(text) }
    }
    let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
    #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse(deep) }
  }
}
