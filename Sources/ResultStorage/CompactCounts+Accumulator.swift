import SimulationEngine

/// Counts over time in a result (a server load's requests by minute and source): day-major, emptied day by day.
extension CompactCounts: Accumulator, TimeSeries, DayCleared where Cell: BinaryCodable {
  @inlinable
  public init() {
    self.init(count: 0)
  }

  @inlinable
  public mutating func dropFirst(days: Int, of total: Int) {
    guard days > 0, total > 0 else { return }
    dropFirst(count / total * days)
  }

  @inlinable
  public mutating func clear(days: Range<Int>, of total: Int) {
    guard !days.isEmpty, total > 0 else { return }
    let perDay = count / total
    let range = (days.lowerBound * perDay)..<(days.upperBound * perDay)
    // All zero bytes, set at once (a generic element loop would not be specialised here).
    storage.withUnsafeMutableBytes { bytes in
      let stride = MemoryLayout<Cell>.stride
      UnsafeMutableRawBufferPointer(rebasing: bytes[(range.lowerBound * stride)..<(range.upperBound * stride)])
        .zeroBytes()
    }
    // Only days emptied since a reset are cleared, and a reset dropped every large count: none is in `range`.
  }

  @inlinable
  public mutating func resetAllButDays() {
    large.removeAll(keepingCapacity: true)
  }
}

extension CompactCounts: Shaped {
  @inlinable public var shape: [Int] { [count] }
}

/// The exact counts, for shard files.
extension CompactCounts: BinaryCodable where Cell: BinaryCodable {
  @inlinable
  public func encode(to writer: inout BinaryWriter) {
    storage.encode(to: &writer)
    writer.unsigned(UInt64(large.count))
    for (index, value) in large.sorted(by: { $0.key < $1.key }) {
      writer.unsigned(UInt64(index))
      writer.unsigned(value)
    }
  }

  @inlinable
  public init(from reader: inout BinaryReader) throws(BinaryDecodingError) {
    storage = try [Cell](from: &reader)
    let entries = try reader.count(minimumBytes: 2)
    for _ in 0..<entries {
      let index = try reader.unsigned()
      guard index < UInt64(storage.count), storage[Int(index)] == Cell.max else {
        throw reader.error("a large count for cell \(index), which is not marked")
      }
      large[Int(index)] = try reader.unsigned()
    }
  }
}
