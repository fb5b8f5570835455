import ResultStorage
import SimulationEngine

/// Reload requests counted by the hour they were made in, and the same summed over the run, for every
/// pair of instance, cause and outcome (``ReloadPair``).
///
/// A phone's replication uses a handful of the pairs (a policy reload granted or deferred, the widget being
/// added...), so its hourly counts are mostly zero: adding it into a run's sum walks only the pairs its
/// totals hold, not every cell (140 per instance and hour). That rests on one invariant, kept by every
/// writer and checked when a tally is read from a file: a pair with no total has no count in any hour.
/// A pair's hours lie together (pair-major), so that walk reads each held pair's hours in one run of memory;
/// hour by hour, each of its cells was a cache line of its own, in both tallies.
package struct ReloadTally: Sendable, Equatable, DayCleared, Shaped {
  /// By pair and hour (``byPairAndHour``).
  private(set) var byHour: CompactCounts<UInt32>
  /// Hours counted (the cells of a pair).
  private(set) var hours: Int
  /// By pair, over every hour counted (a dropped warm-up's hours included: see ``dropFirst(days:of:)``).
  private(set) var totals: [Int]
  /// Pairs that may hold counts in hours not emptied since the tally was last emptied whole, in order: the
  /// pairs with a total when it was emptied for reuse (``resetAllButDays()``), kept until ``reset()``. Days
  /// are then emptied through these pairs alone when they are few (a phone's replication: a handful of 140
  /// per instance), as the merge walks only the pairs held. Every other pair is zero in every hour.
  private var heldBefore: [Int] = []
  /// Per pair: whether it is in ``heldBefore`` (allocated on first reuse).
  private var isHeldBefore: [Bool] = []

  package init() {
    byHour = CompactCounts(count: 0)
    totals = []
    hours = 0
  }

  package init(hours: Int, pairs: Int) {
    byHour = CompactCounts(count: hours * pairs)
    totals = Array(repeating: 0, count: pairs)
    self.hours = hours
  }

  var pairs: Int { totals.count }

  /// A pair's hours together: a row per pair, a cell per hour.
  private var byPairAndHour: TableLayout { TableLayout(columns: hours) }

  /// Equal counts (which pairs were held before a reuse is bookkeeping, not a count).
  package static func == (lhs: ReloadTally, rhs: ReloadTally) -> Bool {
    lhs.byHour == rhs.byHour && lhs.totals == rhs.totals
  }
  package var shape: [Int] { [byHour.count, totals.count] }

  @inline(__always)
  mutating func count(pair: Int, hourIndex: Int) {
    // An hour out of range would land in a neighbouring pair (and break the invariant above).
    precondition(UInt(bitPattern: hourIndex) < UInt(bitPattern: hours), "hour \(hourIndex) of \(hours)")
    byHour.add(1, at: byPairAndHour.index(pair, hourIndex))
    totals[pair] += 1
  }

  /// Requests of the pair made in hour `hourIndex`.
  subscript(pair pair: Int, hourIndex hourIndex: Int) -> UInt64 {
    precondition(UInt(bitPattern: hourIndex) < UInt(bitPattern: hours), "hour \(hourIndex) of \(hours)")
    return byHour[byPairAndHour.index(pair, hourIndex)]
  }

  /// Adds another tally of the same shape: through only the pairs it holds when they are few (a phone's
  /// replication), through every cell otherwise (a fleet's sum).
  package mutating func merge(_ other: ReloadTally) {
    precondition(totals.count == other.totals.count, "merged reload tallies of different shapes")
    let held = other.heldPairs
    if other.mergesWhole(held) {
      byHour.merge(other.byHour)
    } else if !held.isEmpty {
      byHour.merge(other.byHour, each: held, width: hours)
    }
    totals.merge(other.totals)
  }

  /// Merges `other` and empties it in the same pass (its hourly counts through the pairs it holds, then
  /// its totals): its reuse then finds no pair held and no day to empty.
  package mutating func absorb(_ other: inout ReloadTally) {
    precondition(totals.count == other.totals.count, "merged reload tallies of different shapes")
    let held = other.heldPairs
    if other.mergesWhole(held) {
      byHour.merge(other.byHour)
      other.byHour.reset()
    } else if !held.isEmpty {
      byHour.absorb(&other.byHour, each: held, width: hours)
    }
    totals.merge(other.totals)
    other.totals.reset()
  }

  /// Whether this tally, holding the pairs `held`, is added (and emptied) in a pass over every cell rather
  /// than through its pairs: past an eighth of them, that pass (vectorised, in memory order) costs less.
  private func mergesWhole(_ held: [Int]) -> Bool { held.count * 8 > totals.count }

  /// The pairs with a total, in order: the only ones with a count in any hour.
  private var heldPairs: [Int] {
    // Counted first, then listed into storage of that size: one allocation, not one per doubling.
    var heldCount = 0
    for total in totals where total != 0 { heldCount += 1 }
    guard heldCount > 0 else { return [] }
    var held: [Int] = []
    held.reserveCapacity(heldCount)
    for pair in totals.indices where totals[pair] != 0 { held.append(pair) }
    return held
  }

  package mutating func reset() {
    byHour.reset()
    totals.reset()
    heldBefore.removeAll(keepingCapacity: true)
    isHeldBefore.removeAll(keepingCapacity: true)
  }

  package mutating func clear(days: Range<Int>, of total: Int) {
    guard !days.isEmpty, total > 0 else { return }
    // The days' hours of only the pairs that may hold counts (a phone's few), or of every pair once more than
    // an eighth of them may.
    let perDay = hours / total
    let cleared = (days.lowerBound * perDay)..<(days.upperBound * perDay)
    if heldBefore.count * 8 > totals.count {
      byHour.clear(cleared, ofRuns: totals.indices, width: hours)
    } else {
      byHour.clear(cleared, ofRuns: heldBefore, width: hours)
    }
  }

  package mutating func resetAllButDays() {
    if isHeldBefore.count != totals.count { isHeldBefore = Array(repeating: false, count: totals.count) }
    var added = false
    for pair in totals.indices where totals[pair] != 0 && !isHeldBefore[pair] {
      isHeldBefore[pair] = true
      heldBefore.append(pair)
      added = true
    }
    if added { heldBefore.sort() }
    byHour.resetAllButDays()
    totals.reset()
  }

  /// Leaves the first days' hourly counts out; the totals keep them (a device's warm-up is counted
  /// elsewhere, so a result whose warm-up is dropped counted none). Counts only ever leave an hour here, so
  /// the invariant holds.
  package mutating func dropFirst(days: Int, of total: Int) {
    guard days > 0, total > 0, hours > 0 else { return }
    let dropped = hours / total * days
    byHour.dropFirst(dropped, ofRunsOf: hours)
    hours -= dropped
  }
}

/// The hourly counts hour by hour (a row per hour, a cell per pair), then the totals: the layout of the two
/// fields this tally replaced.
extension ReloadTally: BinaryCodable {
  /// The hourly counts hour by hour, as files hold them.
  var hourMajor: CompactCounts<UInt32> { byHour.transposed(runs: totals.count, width: hours) }

  package func encode(to writer: inout BinaryWriter) {
    hourMajor.encode(to: &writer)
    totals.encode(to: &writer)
  }

  package init(from reader: inout BinaryReader) throws(BinaryDecodingError) {
    let byHour = try CompactCounts<UInt32>(from: &reader)
    let totals = try [Int](from: &reader)
    guard !totals.isEmpty || byHour.count == 0 else { throw reader.error("reload counts without their pairs") }
    guard totals.isEmpty || byHour.count % totals.count == 0 else {
      throw reader.error("\(byHour.count) hourly reload counts for \(totals.count) pairs")
    }
    for pair in totals.indices where totals[pair] < 0 {
      throw reader.error("a negative reload total (\(totals[pair])) for pair \(pair)")
    }
    if let index = byHour.firstNonZero(where: { totals[$0 % totals.count] == 0 }) {
      throw reader.error(
        "reload counts in hour \(index / totals.count) for pair \(index % totals.count), whose total is 0")
    }
    hours = totals.isEmpty ? 0 : byHour.count / totals.count
    self.byHour = byHour.transposed(runs: hours, width: totals.count)
    self.totals = totals
  }
}
