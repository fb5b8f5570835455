import ResultStorage
import SimulationEngine

package struct Field<Value: Accumulator>: ResultField {
  package typealias Path = WritableKeyPath<ReplicationResult, Value> & Sendable
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
  package init(_ path: Path) {
    self.path = path
    make = { _ in Value() }
    drop = nil
    clearDays = nil
    resetAllButDays = nil
    add = { $0.merge($1) }
    take = { $0.absorb(&$1) }
  }

  /// A total over the run (instance, kind, channel...): not indexed by time.
  package init(_ path: Path, make: @escaping @Sendable (ResultShape) -> Value) {
    self.path = path
    self.make = make
    drop = nil
    clearDays = nil
    resetAllButDays = nil
    add = { $0.merge($1) }
    take = { $0.absorb(&$1) }
  }

  package func dropFirst(_ result: inout ReplicationResult, days: Int, of total: Int) {
    drop?(&result[keyPath: path], days, total)
  }

  package func encode(_ result: ReplicationResult, _ writer: inout BinaryWriter) {
    result[keyPath: path].encode(to: &writer)
  }

  package func decode(_ result: inout ReplicationResult, _ reader: inout BinaryReader) throws(BinaryDecodingError) {
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

  package var keyPath: AnyKeyPath { path }
  package func allocate(_ result: inout ReplicationResult, _ shape: ResultShape) { result[keyPath: path] = make(shape) }
  package func merge(_ result: inout ReplicationResult, _ other: inout ReplicationResult) {
    // Both sides through the key path's modify access: a read (`other[keyPath: path]`) projects through a
    // generic path that looks up `Result`'s metadata every time (about 1,000 instructions a field, 32
    // fields a replication).
    add(&result[keyPath: path], &other[keyPath: path])
  }

  package func absorb(_ result: inout ReplicationResult, _ other: inout ReplicationResult) {
    take(&result[keyPath: path], &other[keyPath: path])
  }
  package func reset(_ result: inout ReplicationResult) { result[keyPath: path].reset() }

  package var isOverTime: Bool { clearDays != nil }

  package func reset(_ result: inout ReplicationResult, leavingDays: Bool) {
    if leavingDays, let resetAllButDays {
      resetAllButDays(&result[keyPath: path])
    } else {
      reset(&result)
    }
  }

  package func clear(_ result: inout ReplicationResult, days: Range<Int>, of total: Int) {
    clearDays?(&result[keyPath: path], days, total)
  }
}

extension Field where Value: DayCleared {
  /// An accumulator over time.
  package init(overTime path: Path, make: @escaping @Sendable (ResultShape) -> Value) {
    self.path = path
    self.make = make
    drop = { value, days, total in value.dropFirst(days: days, of: total) }
    clearDays = { value, days, total in value.clear(days: days, of: total) }
    resetAllButDays = { value in value.resetAllButDays() }
    add = { $0.merge($1) }
    take = { $0.absorb(&$1) }
  }
}
