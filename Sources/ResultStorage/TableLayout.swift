/// Where the cells of a table of `columns` columns lie in flat storage, row after row: the cells of a row
/// together, the rows in order. Readers and writers ask it for a cell's place rather than computing it.
public struct TableLayout: Sendable, Equatable {
  public let columns: Int

  @inlinable
  public init(columns: Int) {
    self.columns = columns
  }

  /// The place of the cell in row `row` and column `column`.
  @inlinable @inline(__always)
  public func index(_ row: Int, _ column: Int) -> Int { row * columns + column }

  /// The place of the first cell of row `row` (its cells follow it).
  @inlinable @inline(__always)
  public func start(ofRow row: Int) -> Int { row * columns }

  /// The row of the cell at `index`.
  @inlinable @inline(__always)
  public func row(of index: Int) -> Int { index / columns }

  /// The places of the cells of row `row`.
  @inlinable
  public func cells(ofRow row: Int) -> Range<Int> { (row * columns)..<((row + 1) * columns) }
}

/// Where the cells of a table of three dimensions lie in flat storage, the last one innermost: the cell
/// (`outer`, `middle`, `inner`) of a table of `middleCount` x `innerCount` cells per outer step.
public struct TableLayout3: Sendable, Equatable {
  public let middleCount: Int
  public let innerCount: Int

  @inlinable
  public init(middle middleCount: Int, inner innerCount: Int) {
    self.middleCount = middleCount
    self.innerCount = innerCount
  }

  /// The place of the cell (`outer`, `middle`, `inner`).
  @inlinable @inline(__always)
  public func index(_ outer: Int, _ middle: Int, _ inner: Int) -> Int {
    (outer * middleCount + middle) * innerCount + inner
  }
}
