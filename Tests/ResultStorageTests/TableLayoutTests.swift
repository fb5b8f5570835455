import Testing

@testable import ResultStorage

/// A table's layout places cells row after row, as the flat index formulas it replaced did.
@Suite("Table layouts")
struct TableLayoutTests {
  @Test("two dimensions: row by row, each row's cells together")
  func twoDimensions() {
    let layout = TableLayout(columns: 7)
    var expected = 0
    for row in 0..<5 {
      #expect(layout.start(ofRow: row) == expected)
      #expect(layout.cells(ofRow: row) == expected..<(expected + 7))
      for column in 0..<7 {
        #expect(layout.index(row, column) == expected)
        #expect(layout.row(of: expected) == row)
        expected += 1
      }
    }
  }

  @Test("three dimensions: the last innermost")
  func threeDimensions() {
    let layout = TableLayout3(middle: 4, inner: 3)
    var expected = 0
    for outer in 0..<3 {
      for middle in 0..<4 {
        for inner in 0..<3 {
          #expect(layout.index(outer, middle, inner) == expected)
          expected += 1
        }
      }
    }
  }
}
