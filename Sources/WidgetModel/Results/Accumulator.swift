import SimulationEngine

/// A part of a replication's result that adds up across devices (in any order, to the same bits) and can be
/// emptied for another run without giving back its memory.
protocol Accumulator: Sendable, BinaryCodable {
  /// The empty value.
  init()
  mutating func merge(_ other: Self)
  mutating func reset()
  /// Adds `other` as ``merge(_:)`` does and may empty what it added, in the same pass: `other` is then part
  /// emptied, to be emptied for reuse before anything reads it (``ReplicationResult/absorb(_:)``). Emptying
  /// it there leaves less for its reuse to empty, each cell touched once while it is in the cache.
  mutating func absorb(_ other: inout Self)
}

extension Accumulator {
  mutating func reset() { self = Self() }
  /// Merges; `other` keeps its counts (its reuse empties them, as after a merge).
  mutating func absorb(_ other: inout Self) { merge(other) }
}

extension Accumulator where Self: FixedWidthInteger {
  @inline(__always) mutating func merge(_ other: Self) { self += other }
  @inline(__always) mutating func reset() { self = 0 }
}

extension Int: Accumulator {}
extension Int32: Accumulator {}
extension Int64: Accumulator {}
extension UInt64: Accumulator {}
extension Int128: Accumulator {}

/// Element by element; emptied in place. Fields are reached through `any ResultField`, where even a
/// `@_specialize`d generic loop called a witness for every element's add (and for the loop's index): the
/// integer arrays results are made of go through a loop specialised for their type (``IntegerCells``) instead.
extension Array: Accumulator where Element: Accumulator {
  mutating func merge(_ other: [Element]) {
    precondition(count == other.count, "merged accumulators of different shapes")
    // Metatypes compared, not cast: `is Int64.Type` asks the runtime, several times a replication per array.
    switch ObjectIdentifier(Element.self) {
    case ObjectIdentifier(Int64.self): withCells(other, as: Int64.self, IntegerCells.add)
    case ObjectIdentifier(UInt64.self): withCells(other, as: UInt64.self, IntegerCells.add)
    case ObjectIdentifier(Int.self): withCells(other, as: Int.self, IntegerCells.add)
    case ObjectIdentifier(Int32.self): withCells(other, as: Int32.self, IntegerCells.add)
    case ObjectIdentifier(Int128.self): withCells(other, as: Int128.self, IntegerCells.add)
    default:
      withUnsafeMutableBufferPointer { mine in
        other.withUnsafeBufferPointer { theirs in
          for index in mine.indices { mine[index].merge(theirs[index]) }
        }
      }
    }
  }

  mutating func reset() {
    // An empty array may be the shared empty storage: made unique, it would be allocated to be emptied.
    guard !isEmpty else { return }
    switch ObjectIdentifier(Element.self) {
    case ObjectIdentifier(Int64.self), ObjectIdentifier(UInt64.self), ObjectIdentifier(Int.self),
      ObjectIdentifier(Int32.self), ObjectIdentifier(Int128.self):
      // An integer's empty value is all zero bytes.
      withUnsafeMutableBytes { $0.zeroBytes() }
    default:
      withUnsafeMutableBufferPointer { mine in
        for index in mine.indices { mine[index].reset() }
      }
    }
  }

  /// This array's and `other`'s elements as `Cell`s, which they are (checked by the caller).
  private mutating func withCells<Cell>(
    _ other: [Element], as _: Cell.Type, _ body: (UnsafeMutableBufferPointer<Cell>, UnsafeBufferPointer<Cell>) -> Void
  ) {
    precondition(Element.self == Cell.self, "cells of another type")
    withUnsafeMutableBufferPointer { mine in
      other.withUnsafeBufferPointer { theirs in
        body(
          UnsafeMutableBufferPointer(
            start: UnsafeMutableRawPointer(mine.baseAddress)?.assumingMemoryBound(to: Cell.self), count: mine.count),
          UnsafeBufferPointer(
            start: UnsafeRawPointer(theirs.baseAddress)?.assumingMemoryBound(to: Cell.self), count: theirs.count))
      }
    }
  }
}

/// Cell-by-cell sums of the integer arrays in results (checked: a count past its type's range traps rather
/// than wraps). Called with a concrete type, each use is specialised to a plain loop.
///
/// The loop adds wrapping and gathers any overflow into one bit pattern, checked after it, so that it runs
/// in vector registers (a trap inside the loop keeps it to one cell at a time; a replication's dense hourly
/// arrays, push counts above all, are thousands of cells). A sum that overflowed still traps, once the loop
/// is done.
enum IntegerCells {
  @inline(__always)
  static func add<Cell: FixedWidthInteger>(
    _ mine: UnsafeMutableBufferPointer<Cell>, _ theirs: UnsafeBufferPointer<Cell>
  ) {
    precondition(!addWrapping(mine, theirs), "a count past its type's range")
  }

  /// Adds `theirs` into `mine` cell by cell, wrapping; whether any sum overflowed.
  @inline(__always)
  static func addWrapping<Cell: FixedWidthInteger>(
    _ mine: UnsafeMutableBufferPointer<Cell>, _ theirs: UnsafeBufferPointer<Cell>
  ) -> Bool {
    precondition(mine.count == theirs.count, "cells of different shapes")
    var overflow: Cell = 0
    for index in mine.indices {
      let (a, b) = (mine[index], theirs[index])
      let sum = a &+ b
      // The top bit: signed, the sum has the sign of neither operand; unsigned, the add carried out of it.
      overflow |= Cell.isSigned ? (a ^ sum) & (b ^ sum) : (a & b) | ((a | b) & ~sum)
      mine[index] = sum
    }
    return overflow >> (Cell.bitWidth - 1) & 1 != 0
  }
}

extension StalenessRecorder: Accumulator {}
extension ActivityTotals: Accumulator {}
extension ReplicationFingerprint: Accumulator {}
extension DeviceDistributions: Accumulator {}

/// The shape of a run's results: what sizes every accumulator.
struct ResultShape {
  let days: Int
  let instanceCount: Int
  let activityKinds: Int
  /// Whether server load is also kept per second (fleets).
  var perSecond = false
  /// Fleet-wide events.
  var events = 0
  /// Groups of phones by the widgets they have (``DeviceGroups``).
  var deviceGroups = 0
  var hours: Int { days * 24 }
  /// Energy subjects: instances, `device`, `widget_push`, each Live Activity kind, `app`.
  var energySubjects: Int { instanceCount + 3 + activityKinds }
}

extension ResultShape {
  /// The shape of a replication's result of `configuration`.
  init(_ configuration: borrowing ScenarioConfiguration) {
    self.init(
      days: configuration.simulatedDays, instanceCount: configuration.instances.count,
      activityKinds: configuration.liveActivities.count, perSecond: configuration.keepsSecondLoad,
      events: configuration.events.count, deviceGroups: DeviceGroups(configuration).count)
  }
}

/// One accumulator of ``ReplicationResult``: where it is, and how big it is for a shape.
protocol ResultField: Sendable {
  /// Which property it is (distinct for every field).
  var keyPath: AnyKeyPath { get }
  func allocate(_ result: inout ReplicationResult, _ shape: ResultShape)
  /// Adds `other`'s field (`other` is not changed). It is passed `inout` so that the key path reads it in
  /// place: applied to a result passed by value, it copies the whole result first (a retain and release of
  /// each of its arrays, for every field).
  func merge(_ result: inout ReplicationResult, _ other: inout ReplicationResult)
  /// Adds `other`'s field and may empty it (see ``Accumulator/absorb(_:)``).
  func absorb(_ result: inout ReplicationResult, _ other: inout ReplicationResult)
  func reset(_ result: inout ReplicationResult)
  /// Whether it is kept over time (and so emptied day by day: see ``DayCleared``).
  var isOverTime: Bool { get }
  /// Empties it, or (`leavingDays`) everything but its cells over time.
  func reset(_ result: inout ReplicationResult, leavingDays: Bool)
  /// Empties days `days` of `total` of a field over time; nothing for others.
  func clear(_ result: inout ReplicationResult, days: Range<Int>, of total: Int)
  /// Leaves out the first `days` of `total` days (the warm-up) from a field over time; others are kept.
  func dropFirst(_ result: inout ReplicationResult, days: Int, of total: Int)
  func encode(_ result: ReplicationResult, _ writer: inout BinaryWriter)
  /// Replaces the field with the one read; it must have the size the result was allocated with.
  func decode(_ result: inout ReplicationResult, _ reader: inout BinaryReader) throws(BinaryDecodingError)
}

/// An accumulator that is not one collection (a tally of several arrays, a ledger): its sizes, which one read
/// from a file must share with the one the scenario allocates.
protocol Shaped {
  var shape: [Int] { get }
}

extension CompactCounts: Shaped {
  var shape: [Int] { [count] }
}

extension EnergyLedger: Shaped {
  var shape: [Int] { [hours, subjectCount] }
}

extension ServerLoad: Shaped {
  var shape: [Int] { [minuteCount, seconds.secondCount] }
}

/// An accumulator over time: the first days can be cut off. Most are day-major (days, or hours, or minutes
/// first); the tables a phone fills in a few columns are column-major (``BookedColumns``, ``ReloadTally``), and
/// cut each column.
protocol TimeSeries: Accumulator {
  /// Removes the first `days` of `total`.
  mutating func dropFirst(days: Int, of total: Int)
}

/// An accumulator over time whose days are emptied as a run reaches them, not all at once when it is reset
/// (see ``ReplicationResult/open(throughDay:)``): a 30-day result holds megabytes, and emptying a day just
/// before the device writes to it keeps those cells in the cache, where emptying all of them at the start
/// left each day's first writes waiting for memory (a column-major table empties the day in each column it
/// may hold).
protocol DayCleared: TimeSeries {
  /// Empties days `days` of `total` (every cell a device can write while those days run).
  mutating func clear(days: Range<Int>, of total: Int)
  /// Empties everything but the cells over time, which ``clear(days:of:)`` empties later.
  mutating func resetAllButDays()
}

/// Each day (or hour, or minute) is the same number of elements.
extension Array: TimeSeries where Element: Accumulator {
  mutating func dropFirst(days: Int, of total: Int) {
    guard days > 0, total > 0 else { return }
    removeFirst(count / total * days)
  }
}

/// Integer cells, whose zero is all zero bytes: a day is emptied with one `memset` (the field is reached
/// through `any ResultField`, where a generic loop would cost a witness-table call per cell).
extension Array: DayCleared where Element: Accumulator & FixedWidthInteger {
  mutating func clear(days: Range<Int>, of total: Int) {
    guard !days.isEmpty, total > 0 else { return }
    let bytesPerDay = count / total * MemoryLayout<Element>.stride
    withUnsafeMutableBytes { bytes in
      let cleared = UnsafeMutableRawBufferPointer(
        rebasing: bytes[(days.lowerBound * bytesPerDay)..<(days.upperBound * bytesPerDay)])
      cleared.zeroBytes()
    }
  }

  mutating func resetAllButDays() {}
}

struct Field<Value: Accumulator>: ResultField {
  typealias Path = WritableKeyPath<ReplicationResult, Value> & Sendable
  let path: Path
  let make: @Sendable (ResultShape) -> Value
  /// Cuts the first days off (fields over time); nil for totals (their warm-up went elsewhere).
  let drop: (@Sendable (inout Value, _ days: Int, _ total: Int) -> Void)?
  /// Empties some days, and everything but the days (fields over time); nil for totals.
  let clearDays: (@Sendable (inout Value, _ days: Range<Int>, _ total: Int) -> Void)?
  let resetAllButDays: (@Sendable (inout Value) -> Void)?
  /// `Value.merge`, made where the field is listed (its type known there): the field is reached through
  /// `any ResultField`, where calling `merge` on the value runs the generic code (an array's merge then
  /// reaches its cells through unspecialised closures, about 1,600 instructions an array and replication,
  /// whatever its size).
  let add: @Sendable (inout Value, inout Value) -> Void
  /// `Value.absorb`, made where the field is listed, for the same reason.
  let take: @Sendable (inout Value, inout Value) -> Void

  /// An accumulator that starts empty whatever the shape (a scalar, a sketch).
  init(_ path: Path) {
    self.path = path
    make = { _ in Value() }
    drop = nil
    clearDays = nil
    resetAllButDays = nil
    add = { $0.merge($1) }
    take = { $0.absorb(&$1) }
  }

  /// A total over the run (instance, kind, channel...): not indexed by time.
  init(_ path: Path, make: @escaping @Sendable (ResultShape) -> Value) {
    self.path = path
    self.make = make
    drop = nil
    clearDays = nil
    resetAllButDays = nil
    add = { $0.merge($1) }
    take = { $0.absorb(&$1) }
  }

  func dropFirst(_ result: inout ReplicationResult, days: Int, of total: Int) {
    drop?(&result[keyPath: path], days, total)
  }

  func encode(_ result: ReplicationResult, _ writer: inout BinaryWriter) { result[keyPath: path].encode(to: &writer) }

  func decode(_ result: inout ReplicationResult, _ reader: inout BinaryReader) throws(BinaryDecodingError) {
    let value = try Value(from: &reader)
    if let read = value as? any Collection, let allocated = result[keyPath: path] as? any Collection,
      read.count != allocated.count
    {
      throw reader.error("\(path): \(read.count) values where the scenario has \(allocated.count)")
    }
    if let read = value as? any Shaped, let allocated = result[keyPath: path] as? any Shaped,
      read.shape != allocated.shape
    {
      throw reader.error("\(path): sizes \(read.shape) where the scenario has \(allocated.shape)")
    }
    result[keyPath: path] = value
  }

  var keyPath: AnyKeyPath { path }
  func allocate(_ result: inout ReplicationResult, _ shape: ResultShape) { result[keyPath: path] = make(shape) }
  func merge(_ result: inout ReplicationResult, _ other: inout ReplicationResult) {
    // Both sides through the key path's modify access: a read (`other[keyPath: path]`) projects through a
    // generic path that looks up `Result`'s metadata every time (about 1,000 instructions a field, 32
    // fields a replication).
    add(&result[keyPath: path], &other[keyPath: path])
  }

  func absorb(_ result: inout ReplicationResult, _ other: inout ReplicationResult) {
    take(&result[keyPath: path], &other[keyPath: path])
  }
  func reset(_ result: inout ReplicationResult) { result[keyPath: path].reset() }

  var isOverTime: Bool { clearDays != nil }

  func reset(_ result: inout ReplicationResult, leavingDays: Bool) {
    if leavingDays, let resetAllButDays {
      resetAllButDays(&result[keyPath: path])
    } else {
      reset(&result)
    }
  }

  func clear(_ result: inout ReplicationResult, days: Range<Int>, of total: Int) {
    clearDays?(&result[keyPath: path], days, total)
  }
}

extension Field where Value: DayCleared {
  /// An accumulator over time.
  init(overTime path: Path, make: @escaping @Sendable (ResultShape) -> Value) {
    self.path = path
    self.make = make
    drop = { value, days, total in value.dropFirst(days: days, of: total) }
    clearDays = { value, days, total in value.clear(days: days, of: total) }
    resetAllButDays = { value in value.resetAllButDays() }
    add = { $0.merge($1) }
    take = { $0.absorb(&$1) }
  }
}

extension Array where Element: Accumulator {
  /// `count` empty elements.
  static func empty(_ count: Int) -> [Element] { Array(repeating: Element(), count: count) }
}
