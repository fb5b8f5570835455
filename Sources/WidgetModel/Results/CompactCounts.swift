import SimulationEngine

/// Non-negative integer counts in small cells: a cell holds its count while it fits below `Cell.max`; past
/// that it is marked `Cell.max` and its count lives in a side table. Exact (no count is ever lost or
/// rounded), and small where counts are small, which most seconds of a run are.
///
/// Counts made with `tracksBusyBlocks` also note which blocks of ``blockSize`` cells may hold a count (every
/// cell of any other block is zero): one phone's replication touches a few cells of each hour's, so its
/// counts are merged into a run's sum and emptied for reuse block by block, at the cost of what it touched.
struct CompactCounts<Cell: FixedWidthInteger & UnsignedInteger & Sendable>: Sendable, Equatable {
  private(set) var cells: [Cell]
  /// The counts of marked cells, by index.
  private var large: [Int: UInt64] = [:]
  /// One bit per block of cells, set when the block may hold a count (empty when not tracked). Plain words
  /// rather than a `BitSet`: a batch of adds (``addEach(_:_:)``) sets them through a pointer in its loop.
  private var busyBlocks: [UInt64] = []
  let tracksBusyBlocks: Bool

  /// Cells per block of ``busyBlocks``: 16 (64 bytes of 4-byte cells, a cache line).
  static var blockShift: Int { 4 }
  static var blockSize: Int { 1 << blockShift }

  init(count: Int, tracksBusyBlocks: Bool = false) {
    // Narrower than 64 bits: a merge adds two cells in 64 bits without wrapping.
    precondition(Cell.bitWidth < 64, "compact counts need cells narrower than their 64-bit sums")
    cells = Array(repeating: 0, count: count)
    self.tracksBusyBlocks = tracksBusyBlocks
    if tracksBusyBlocks { busyBlocks = Array(repeating: 0, count: (blockCount + 63) / 64) }
  }

  var count: Int { cells.count }
  var blockCount: Int { (cells.count + Self.blockSize - 1) >> Self.blockShift }

  /// Equal counts (whatever blocks are noted busy).
  static func == (lhs: CompactCounts, rhs: CompactCounts) -> Bool {
    lhs.cells == rhs.cells && lhs.large == rhs.large
  }

  subscript(index: Int) -> UInt64 {
    let cell = cells[index]
    return cell == Cell.max ? large[index, default: 0] : UInt64(cell)
  }

  @inline(__always)
  mutating func add(_ amount: UInt64, at index: Int) {
    if tracksBusyBlocks { markBusy(index) }
    let cell = cells[index]
    if cell != Cell.max, amount < UInt64(Cell.max - cell) {
      cells[index] = cell + Cell(amount)
      return
    }
    large[index] = self[index] &+ amount
    cells[index] = Cell.max
  }

  /// Adds `count` amounts, the `position`th at the cell `entry(position)` names (nil: nothing), through the
  /// cells' memory in one tight loop: a batch of adds to cells far apart waits for its cache misses together.
  /// The same as calling ``add(_:at:)`` for each in order.
  @inline(__always)
  mutating func addEach(_ count: Int, _ entry: (Int) -> (index: Int, amount: UInt64)?) {
    // A cell that would pass `Cell.max` goes to the side table after the loop; later adds to it in this batch
    // find it unchanged and follow it there, so the counts come out exactly as added one by one.
    var full: [(index: Int, amount: UInt64)] = []
    let tracks = tracksBusyBlocks
    cells.withUnsafeMutableBufferPointer { cells in
      busyBlocks.withUnsafeMutableBufferPointer { busy in
        for position in 0..<count {
          guard let (index, amount) = entry(position) else { continue }
          if tracks { busy[index >> 10] |= 1 << UInt64((index >> Self.blockShift) & 63) }
          let cell = cells[index]
          if cell != Cell.max, amount < UInt64(Cell.max - cell) {
            cells[index] = cell + Cell(truncatingIfNeeded: amount)
          } else {
            full.append((index, amount))
          }
        }
      }
    }
    for (index, amount) in full { add(amount, at: index) }
  }

  /// Whether the `count` cells from `start` are all zero (a marked cell is not: it holds a large count).
  @inline(__always)
  func isZero(_ start: Int, count: Int) -> Bool {
    cells.withUnsafeBufferPointer { cells in
      var any: Cell = 0
      for index in start..<(start + count) { any |= cells[index] }
      return any == 0
    }
  }

  // Results reach their fields through `any ResultField`, where the generic version would run at a
  // witness-table call per cell.
  @_specialize(where Cell == UInt32)
  @_specialize(where Cell == UInt8)
  mutating func merge(_ other: CompactCounts) {
    precondition(cells.count == other.cells.count, "merged counts of different shapes")
    // Few busy blocks (one phone's replication): block by block.
    if other.tracksBusyBlocks, other.busyBlockCount * 4 < other.blockCount {
      merge(other, each: SetBits(words: other.busyBlocks), width: Self.blockSize)
      return
    }
    if tracksBusyBlocks {
      if other.tracksBusyBlocks {
        for word in busyBlocks.indices { busyBlocks[word] |= other.busyBlocks[word] }
      } else {
        markAllBusy()
      }
    }
    // The common case, no cell reaching `Cell.max` (marked or full): two plain loops the compiler vectorises,
    // one that looks and one that adds, instead of a branch per cell.
    let fits = cells.withUnsafeBufferPointer { mine in
      other.cells.withUnsafeBufferPointer { theirs in
        var largest: UInt64 = 0
        for index in mine.indices { largest = Swift.max(largest, UInt64(mine[index]) &+ UInt64(theirs[index])) }
        return largest < UInt64(Cell.max)
      }
    }
    if fits {
      cells.withUnsafeMutableBufferPointer { mine in
        other.cells.withUnsafeBufferPointer { theirs in
          for index in mine.indices { mine[index] &+= theirs[index] }
        }
      }
      return
    }
    other.cells.withUnsafeBufferPointer { theirs in
      for index in theirs.indices where theirs[index] != 0 {
        let amount = theirs[index] == Cell.max ? other.large[index, default: 0] : UInt64(theirs[index])
        add(amount, at: index)
      }
    }
  }

  /// Adds `other`'s cells in the runs of `width` cells from `start * width` for every start of `starts`
  /// (busy blocks, or ``ServerLoad``'s busy minutes), in one pass: in place while a sum stays below
  /// `Cell.max`, through ``add(_:at:)`` otherwise.
  mutating func merge(_ other: CompactCounts, each starts: some Sequence<Int>, width: Int) {
    var full: [Int] = []
    let tracks = tracksBusyBlocks
    cells.withUnsafeMutableBufferPointer { mine in
      other.cells.withUnsafeBufferPointer { theirs in
        busyBlocks.withUnsafeMutableBufferPointer { busy in
          for start in starts {
            let first = start * width
            let end = Swift.min(first + width, mine.count)
            for index in first..<end {
              // A marked cell on either side, or a sum that would reach the mark: through the side table.
              let sum = UInt64(mine[index]) &+ UInt64(theirs[index])
              if sum < UInt64(Cell.max) {
                mine[index] = Cell(truncatingIfNeeded: sum)
              } else {
                full.append(index)
              }
            }
            guard tracks, first < end else { continue }
            for block in (first >> Self.blockShift)...((end - 1) >> Self.blockShift) {
              busy[block >> 6] |= 1 << UInt64(block & 63)
            }
          }
        }
      }
    }
    for index in full { add(other[index], at: index) }
  }

  /// Empties the `width` cells from `slot * width` of every slot in `slots` (busy minutes of ``ServerLoad``).
  mutating func zero(each slots: some Sequence<Int>, width: Int) {
    // A marked cell exists only while the side table holds its count: without one, plain stores.
    let checks = !large.isEmpty
    var marked: [Int] = []
    cells.withUnsafeMutableBufferPointer { cells in
      for slot in slots {
        for index in (slot * width)..<((slot + 1) * width) {
          if checks, cells[index] == Cell.max { marked.append(index) }
          cells[index] = 0
        }
      }
    }
    for index in marked { large[index] = nil }
    // Blocks stay noted busy (a superset is harmless): ServerLoad's counts do not track them.
  }

  @inline(__always)
  private mutating func markBusy(_ index: Int) {
    busyBlocks[index >> 10] |= 1 << UInt64((index >> Self.blockShift) & 63)
  }

  private mutating func markAllBusy() {
    for word in busyBlocks.indices { busyBlocks[word] = ~0 }
  }

  /// Blocks noted busy.
  var busyBlockCount: Int { busyBlocks.reduce(0) { $0 + $1.nonzeroBitCount } }

  /// Empties the busy blocks' cells within `range` (a block wholly inside it is no longer busy), reading
  /// only the words of ``busyBlocks`` that cover it.
  @_specialize(where Cell == UInt32)
  @_specialize(where Cell == UInt8)
  mutating func zeroBusyBlocks(in range: Range<Int>) {
    guard !range.isEmpty else { return }
    let firstBlock = range.lowerBound >> Self.blockShift
    let lastBlock = (range.upperBound - 1) >> Self.blockShift
    let shift = Self.blockShift
    let size = Self.blockSize
    let checks = !large.isEmpty  // as in zero(each:width:)
    var marked: [Int] = []
    cells.withUnsafeMutableBufferPointer { cells in
      busyBlocks.withUnsafeMutableBufferPointer { busy in
        for word in (firstBlock >> 6)...(lastBlock >> 6) {
          var rest = busy[word]
          while rest != 0 {
            let block = word << 6 + rest.trailingZeroBitCount
            rest &= rest - 1
            guard block >= firstBlock, block <= lastBlock else { continue }
            let start = Swift.max(block << shift, range.lowerBound)
            let end = Swift.min((block << shift) + size, range.upperBound, cells.count)
            for index in start..<end {
              if checks, cells[index] == Cell.max { marked.append(index) }
              cells[index] = 0
            }
            if start == block << shift, end == Swift.min((block << shift) + size, cells.count) {
              busy[word] &= ~(1 << UInt64(block & 63))
            }
          }
        }
      }
    }
    for index in marked { large[index] = nil }
  }

  /// Notes busy exactly the blocks that hold a count (after counts moved or were read back).
  private mutating func findBusyBlocks() {
    guard tracksBusyBlocks else { return }
    busyBlocks = Array(repeating: 0, count: (blockCount + 63) / 64)
    for block in 0..<blockCount {
      let start = block << Self.blockShift
      if !isZero(start, count: Swift.min(Self.blockSize, cells.count - start)) { markBusy(start) }
    }
  }

  mutating func reset() {
    for word in busyBlocks.indices { busyBlocks[word] = 0 }
    cells.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    large.removeAll(keepingCapacity: true)
  }

  /// Drops the first `n` cells (the rest move down).
  mutating func dropFirst(_ n: Int) {
    cells.removeFirst(n)
    var moved: [Int: UInt64] = [:]
    for (index, value) in large where index >= n { moved[index - n] = value }
    large = moved
    findBusyBlocks()
  }
}

/// Counts over time in a result (reload requests by hour): day-major, emptied day by day.
extension CompactCounts: Accumulator, TimeSeries, DayCleared where Cell: BinaryCodable {
  init() {
    self.init(count: 0)
  }

  mutating func dropFirst(days: Int, of total: Int) {
    guard days > 0, total > 0 else { return }
    dropFirst(count / total * days)
  }

  mutating func clear(days: Range<Int>, of total: Int) {
    guard !days.isEmpty, total > 0 else { return }
    let perDay = count / total
    let range = (days.lowerBound * perDay)..<(days.upperBound * perDay)
    // Only the busy blocks, when few are (one phone's replication: see ``merge(_:)``).
    if tracksBusyBlocks, busyBlockCount * 4 < blockCount {
      zeroBusyBlocks(in: range)
      return
    }
    if tracksBusyBlocks {
      // The blocks wholly inside the range are emptied below.
      let firstWhole = (range.lowerBound + Self.blockSize - 1) >> Self.blockShift
      let endWhole = range.upperBound == cells.count ? blockCount : range.upperBound >> Self.blockShift
      for block in firstWhole..<Swift.max(firstWhole, endWhole) {
        busyBlocks[block >> 6] &= ~(1 << UInt64(block & 63))
      }
    }
    // All zero bytes, set at once (a generic element loop would not be specialised here).
    cells.withUnsafeMutableBytes { bytes in
      let stride = MemoryLayout<Cell>.stride
      UnsafeMutableRawBufferPointer(rebasing: bytes[(range.lowerBound * stride)..<(range.upperBound * stride)])
        .zeroBytes()
    }
    // Only days emptied since a reset are cleared, and a reset dropped every large count: none is in `range`.
  }

  mutating func resetAllButDays() {
    large.removeAll(keepingCapacity: true)
  }
}

/// The exact counts, for shard files.
extension CompactCounts: BinaryCodable where Cell: BinaryCodable {
  func encode(to writer: inout BinaryWriter) {
    cells.encode(to: &writer)
    writer.unsigned(UInt64(large.count))
    for (index, value) in large.sorted(by: { $0.key < $1.key }) {
      writer.unsigned(UInt64(index))
      writer.unsigned(value)
    }
  }

  /// Read back untracked (a shard's counts are merged, never emptied for reuse).
  init(from reader: inout BinaryReader) throws(BinaryDecodingError) {
    tracksBusyBlocks = false
    cells = try [Cell](from: &reader)
    let entries = try reader.count(minimumBytes: 2)
    for _ in 0..<entries {
      let index = try reader.unsigned()
      guard index < UInt64(cells.count), cells[Int(index)] == Cell.max else {
        throw reader.error("a large count for cell \(index), which is not marked")
      }
      large[Int(index)] = try reader.unsigned()
    }
  }
}

/// The positions of the set bits of `words` (bit `i` of word `w` is position `64 w + i`), in order.
struct SetBits: Sequence, IteratorProtocol {
  let words: [UInt64]
  private var word = 0
  private var rest: UInt64

  init(words: [UInt64]) {
    self.words = words
    rest = words.first ?? 0
  }

  mutating func next() -> Int? {
    while rest == 0 {
      word += 1
      guard word < words.count else { return nil }
      rest = words[word]
    }
    let position = word << 6 + rest.trailingZeroBitCount
    rest &= rest - 1
    return position
  }
}
