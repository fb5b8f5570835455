/// An array read as runs of equal width (a table's rows or columns, a tally's pairs): the layouts the result
/// tables change between, for their files and when a warm-up is cut.
extension Array {
  /// The same elements with runs and positions swapped: element `position` of run `run` (of `runs` runs of
  /// `width`) moves to element `run` of run `position` (of `width` runs of `runs`).
  @inlinable
  public func transposed(runs: Int, width: Int) -> [Element] {
    precondition(runs >= 0 && width >= 0 && runs * width == count, "\(count) elements as \(runs) runs of \(width)")
    return (0..<count).map { self[$0 % runs * width + $0 / runs] }
  }

  /// Each run of `width` without its first `n` elements (the rest of each run move down).
  @inlinable
  public func droppingFirst(_ n: Int, ofRunsOf width: Int) -> [Element] {
    guard n != 0 else { return self }
    precondition(n >= 0 && n <= width && width > 0 && count % width == 0, "\(n) of runs of \(width)")
    let kept = width - n
    return (0..<(count / width * kept)).map { self[$0 / kept * width + n + $0 % kept] }
  }
}
