/// Counts read as runs of equal width (a server load's minutes of sources, a reload tally's pairs of hours):
/// emptied, cut and transposed run by run.
extension CompactCounts {
  /// Empties the `width` cells from `start * width` for every start of `starts` (a server load's busy
  /// minutes).
  @inlinable
  public mutating func zero(each starts: some Sequence<Int>, width: Int) {
    // A marked cell exists only while the side table holds its count: without one, plain stores.
    let checks = !large.isEmpty
    var marked: [Int] = []
    storage.withUnsafeMutableBufferPointer { cells in
      for start in starts {
        for index in (start * width)..<((start + 1) * width) {
          if checks, cells[index] == Cell.max { marked.append(index) }
          cells[index] = 0
        }
      }
    }
    for index in marked { large[index] = nil }
  }

  /// Empties the cells `range` of each run of `width` cells from `start * width`, for every start of
  /// `starts` (a reload tally's hours of the pairs it may hold; every other run is known to be zero).
  @inlinable
  public mutating func clear(_ range: Range<Int>, ofRuns starts: some Sequence<Int>, width: Int) {
    guard !range.isEmpty else { return }
    precondition(range.lowerBound >= 0 && range.upperBound <= width, "cells \(range) of runs of \(width)")
    storage.withUnsafeMutableBufferPointer { cells in
      for start in starts {
        UnsafeMutableBufferPointer(
          rebasing: cells[(start * width + range.lowerBound)..<(start * width + range.upperBound)]
        )
        .update(repeating: 0)
      }
    }
    // Only days emptied since a reset are cleared, and a reset dropped every large count: none is in `range`.
  }

  /// Drops the first `n` cells of each run of `width` cells (the rest of each run move down).
  @inlinable
  public mutating func dropFirst(_ n: Int, ofRunsOf width: Int) {
    guard n > 0 else { return }
    precondition(n <= width && width > 0 && count % width == 0, "\(n) cells of runs of \(width)")
    let kept = width - n
    var movedLarge: [Int: UInt64] = [:]
    for (index, value) in large where index % width >= n {
      movedLarge[index / width * kept + index % width - n] = value
    }
    storage = storage.droppingFirst(n, ofRunsOf: width)
    large = movedLarge
  }

  /// The same counts with runs and positions swapped: the cell `position` of run `run` (of `runs` runs of
  /// `width` cells) moves to cell `run` of run `position` (of `width` runs of `runs` cells).
  @inlinable
  public func transposed(runs: Int, width: Int) -> CompactCounts {
    var swapped = self
    swapped.storage = storage.transposed(runs: runs, width: width)
    swapped.large = [:]
    for (index, value) in large { swapped.large[index % width * runs + index / width] = value }
    return swapped
  }
}
