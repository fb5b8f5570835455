import Reports

/// A field-log line read fast: a flat JSON object (string, number, boolean and null members) is scanned
/// in one pass over its bytes; anything else (a nested object or array, an escape in a string) is handed
/// to ``JSONValue/parse(bytes:)``, which reads all of JSON. Both give the same members.
enum FlatJSONObject {
  /// Why a line is not JSON: text that is not UTF-8 (the offset of the first bad byte), or what
  /// ``JSONValue/parse(bytes:)`` found.
  enum Failure: Error {
    case notUTF8(offset: Int)
    case json(JSONValue.ParseError)
  }

  /// The members of the object in `bytes`; throws for bytes that are not UTF-8 or not JSON, and returns nil
  /// for valid JSON that is not an object.
  static func members(_ bytes: ArraySlice<UInt8>) throws(Failure) -> [(String, JSONValue)]? {
    let scanned = bytes.withUnsafeBufferPointer { buffer -> [(String, JSONValue)]? in
      var scanner = FlatScanner(bytes: buffer)
      return scanner.object()
    }
    if let scanned { return scanned }
    // The scan takes only valid UTF-8; the full reader would replace bad bytes, so they are refused here.
    if let offset = firstInvalidUTF8(bytes) { throw .notUTF8(offset: offset) }
    let value: JSONValue
    do {
      value = try JSONValue.parse(bytes: Array(bytes))
    } catch {
      throw .json(error)
    }
    guard case .object(let members) = value else { return nil }
    return members
  }

  /// The offset of the first byte that is not part of valid UTF-8, or nil.
  static func firstInvalidUTF8(_ bytes: ArraySlice<UInt8>) -> Int? {
    var decoder = UTF8()
    var iterator = bytes.makeIterator()
    var offset = 0
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar): offset += UTF8.width(scalar)
      case .emptyInput: return nil
      case .error: return offset
      }
    }
  }
}

/// The one-pass scan of a flat object: nil when the line needs the full reader (or is not valid flat JSON:
/// the full reader then says why).
private struct FlatScanner {
  let bytes: UnsafeBufferPointer<UInt8>
  var position = 0

  mutating func skipSpace() {
    while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x09 { position += 1 }
  }

  /// A string without escapes, at `position` (its opening quote).
  mutating func string() -> String? {
    guard position < bytes.count, bytes[position] == 0x22 else { return nil }
    let start = position + 1
    var end = start
    while end < bytes.count, bytes[end] != 0x22 {
      if bytes[end] == 0x5C || bytes[end] < 0x20 { return nil }
      end += 1
    }
    guard end < bytes.count else { return nil }
    position = end + 1
    return String(validating: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
  }

  /// `true`, `false` or `null` at `position`.
  mutating func literal() -> JSONValue? {
    func matches(_ word: StaticString) -> Bool {
      let length = word.utf8CodeUnitCount
      guard position + length <= bytes.count else { return false }
      let start = word.utf8Start
      for index in 0..<length where bytes[position + index] != start[index] { return false }
      return true
    }
    if matches("true") {
      position += 4
      return .bool(true)
    }
    if matches("false") {
      position += 5
      return .bool(false)
    }
    if matches("null") {
      position += 4
      return .null
    }
    return nil
  }

  mutating func number() -> JSONValue? {
    let start = position
    while position < bytes.count {
      let byte = bytes[position]
      guard (0x30...0x39).contains(byte) || byte == 0x2D || byte == 0x2B || byte == 0x2E || byte == 0x65 || byte == 0x45
      else { break }
      position += 1
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    if let integer = Int(text) { return .integer(integer) }
    if let number = Double(text), number.isFinite { return .number(number) }
    return nil
  }

  mutating func object() -> [(String, JSONValue)]? {
    skipSpace()
    guard position < bytes.count, bytes[position] == 0x7B else { return nil }
    position += 1
    var members: [(String, JSONValue)] = []
    members.reserveCapacity(8)
    skipSpace()
    if position < bytes.count, bytes[position] == 0x7D {
      position += 1
      skipSpace()
      return position == bytes.count ? members : nil
    }
    while true {
      skipSpace()
      guard let key = string() else { return nil }
      skipSpace()
      guard position < bytes.count, bytes[position] == 0x3A else { return nil }
      position += 1
      skipSpace()
      guard position < bytes.count else { return nil }
      let value: JSONValue?
      switch bytes[position] {
      case 0x22: value = string().map { .string($0) }
      case 0x74, 0x66, 0x6E: value = literal()
      case 0x2D, 0x30...0x39: value = number()
      default: value = nil
      }
      guard let value else { return nil }
      members.append((key, value))
      skipSpace()
      guard position < bytes.count else { return nil }
      if bytes[position] == 0x2C {
        position += 1
        continue
      }
      guard bytes[position] == 0x7D else { return nil }
      position += 1
      skipSpace()
      return position == bytes.count ? members : nil
    }
  }
}
