/// A compact binary form for exact results (shard files): unsigned integers as LEB128 varints, signed ones
/// zigzag-encoded first, so the many zeros and small counts of a run take a byte each.
public struct BinaryWriter: Sendable {
  public private(set) var bytes: [UInt8] = []

  public init() {}

  public mutating func unsigned(_ value: UInt64) {
    var rest = value
    while rest >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
      rest >>= 7
    }
    bytes.append(UInt8(rest))
  }

  public mutating func signed(_ value: Int64) {
    unsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
  }

  public mutating func signed(_ value: Int128) {
    signed(Int64(truncatingIfNeeded: value >> 64))
    unsigned(UInt64(truncatingIfNeeded: value))
  }

  public mutating func double(_ value: Double) { unsigned(value.bitPattern) }

  public mutating func text(_ value: String) {
    let utf8 = Array(value.utf8)
    unsigned(UInt64(utf8.count))
    bytes += utf8
  }

  public mutating func raw(_ data: [UInt8]) { bytes += data }

  /// A writer for a file that starts with `magic` (which says what it holds).
  public init(magic: [UInt8]) { bytes = magic }

  /// The bytes written, then their 64-bit FNV-1a checksum (little-endian): a file that can tell it was
  /// damaged or cut short (see ``BinaryReader/init(checksummed:magic:kind:)``).
  public var checksummedBytes: [UInt8] {
    var sealed = bytes
    let checksum = BinaryWriter.checksum(bytes[...])
    for shift in stride(from: 0, to: 64, by: 8) { sealed.append(UInt8(truncatingIfNeeded: checksum >> UInt64(shift))) }
    return sealed
  }

  /// FNV-1a, 64 bits.
  static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    return hash
  }
}

/// Why binary data could not be read: what was expected, where.
public struct BinaryDecodingError: Error, Sendable, CustomStringConvertible {
  public let offset: Int
  public let reason: String

  public init(offset: Int, reason: String) {
    self.offset = offset
    self.reason = reason
  }

  public var description: String { "at byte \(offset): \(reason)" }
}

/// Reads what ``BinaryWriter`` wrote; every read checks the bounds.
public struct BinaryReader: Sendable {
  public let bytes: [UInt8]
  public private(set) var offset: Int

  public init(_ bytes: [UInt8], offset: Int = 0) {
    self.bytes = bytes
    self.offset = offset
  }

  public var isAtEnd: Bool { offset == bytes.count }

  /// A reader of what ``BinaryWriter/checksummedBytes`` wrote after `magic`, placed after the magic; throws
  /// (at byte 0) when `bytes` do not start with it ("not a widgetsim `kind`") or fail the checksum.
  public init(checksummed bytes: [UInt8], magic: [UInt8], kind: String) throws(BinaryDecodingError) {
    guard bytes.count >= magic.count + 8, Array(bytes.prefix(magic.count)) == magic else {
      throw BinaryDecodingError(offset: 0, reason: "not a widgetsim \(kind)")
    }
    let body = bytes.dropLast(8)
    var stored: UInt64 = 0
    for (position, byte) in bytes.suffix(8).enumerated() { stored |= UInt64(byte) << UInt64(position * 8) }
    guard BinaryWriter.checksum(body) == stored else {
      throw BinaryDecodingError(
        offset: 0, reason: "the checksum does not match: the file is damaged or was cut short")
    }
    self.init(Array(body), offset: magic.count)
  }

  public func error(_ reason: String) -> BinaryDecodingError { BinaryDecodingError(offset: offset, reason: reason) }

  public mutating func unsigned() throws(BinaryDecodingError) -> UInt64 {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      guard offset < bytes.count else { throw error("the data ends inside a number") }
      let byte = bytes[offset]
      offset += 1
      guard shift < 64, shift < 63 || byte <= 1 else { throw error("a number longer than 64 bits") }
      value |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 { return value }
      shift += 7
    }
  }

  public mutating func signed() throws(BinaryDecodingError) -> Int64 {
    let raw = try unsigned()
    return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
  }

  public mutating func signed128() throws(BinaryDecodingError) -> Int128 {
    let high = try signed()
    let low = try unsigned()
    return Int128(high) << 64 | Int128(low)
  }

  public mutating func double() throws(BinaryDecodingError) -> Double { Double(bitPattern: try unsigned()) }

  /// A count of items that follow, each at least `minimumBytes` long: checked against what is left.
  public mutating func count(minimumBytes: Int = 1) throws(BinaryDecodingError) -> Int {
    let value = try unsigned()
    guard value <= UInt64(bytes.count - offset) / UInt64(Swift.max(1, minimumBytes)) else {
      throw error("a count of \(value) items, more than the data holds")
    }
    return Int(value)
  }

  public mutating func text() throws(BinaryDecodingError) -> String {
    let length = try count()
    let slice = bytes[offset..<(offset + length)]
    offset += length
    return String(decoding: slice, as: UTF8.self)
  }

  public mutating func raw(_ length: Int) throws(BinaryDecodingError) -> [UInt8] {
    guard length <= bytes.count - offset else { throw error("the data ends early") }
    defer { offset += length }
    return Array(bytes[offset..<(offset + length)])
  }
}

/// A value with an exact binary form.
public protocol BinaryCodable {
  func encode(to writer: inout BinaryWriter)
  init(from reader: inout BinaryReader) throws(BinaryDecodingError)
}

/// The fixed-width integers of results: signed ones zigzag-encoded, unsigned ones as they are; a value read
/// back must fit the type.
public protocol BinaryInteger64: FixedWidthInteger, BinaryCodable {}

extension BinaryInteger64 {
  public func encode(to writer: inout BinaryWriter) {
    if Self.isSigned { writer.signed(Int64(self)) } else { writer.unsigned(UInt64(self)) }
  }

  public init(from reader: inout BinaryReader) throws(BinaryDecodingError) {
    if Self.isSigned {
      let value = try reader.signed()
      guard let exact = Self(exactly: value) else { throw reader.error("\(value) does not fit \(Self.bitWidth) bits") }
      self = exact
    } else {
      let value = try reader.unsigned()
      guard let exact = Self(exactly: value) else { throw reader.error("\(value) does not fit \(Self.bitWidth) bits") }
      self = exact
    }
  }
}

extension Int: BinaryInteger64 {}
extension Int32: BinaryInteger64 {}
extension Int64: BinaryInteger64 {}
extension UInt64: BinaryInteger64 {}
extension UInt32: BinaryInteger64 {}
extension UInt8: BinaryInteger64 {}

extension Int128: BinaryCodable {
  public func encode(to writer: inout BinaryWriter) { writer.signed(self) }
  public init(from reader: inout BinaryReader) throws(BinaryDecodingError) { self = try reader.signed128() }
}

extension Array: BinaryCodable where Element: BinaryCodable {
  public func encode(to writer: inout BinaryWriter) {
    writer.unsigned(UInt64(count))
    for element in self { element.encode(to: &writer) }
  }

  public init(from reader: inout BinaryReader) throws(BinaryDecodingError) {
    let count = try reader.count()
    var elements: [Element] = []
    elements.reserveCapacity(count)
    for _ in 0..<count { elements.append(try Element(from: &reader)) }
    self = elements
  }
}
