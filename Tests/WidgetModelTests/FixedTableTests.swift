import Testing

@testable import WidgetModel

@Suite("Fixed tables (a device's instances and processes)")
struct FixedTableTests {
  /// An element that says when it is freed.
  final class Tracked {
    let value: Int
    init(_ value: Int) { self.value = value }
  }

  @Test("a table holds its elements, changes them in place, and frees them with its last holder")
  func ownership() {
    weak var first: Tracked?
    weak var last: Tracked?
    do {
      let table = FixedTable((0..<5).map { (Tracked($0), $0 * 10) })
      first = table[0].0
      last = table[4].0
      #expect(table.count == 5)
      #expect(table.indices == 0..<5)
      table[2].1 += 7
      table[4].0 = Tracked(40)
      #expect(table.values.map(\.1) == [0, 10, 27, 30, 40])
      #expect(table.map(\.0.value) == [0, 1, 2, 3, 40])
      #expect(last == nil, "a replaced element is freed at once")
      #expect(table.filter { $0.1 >= 27 }.count == 3)
      #expect(table.contains { $0.0.value == 40 })
      #expect(!table.contains { $0.0.value == 4 })
      // A second holder shares the elements (the device is never copied; this is what a copy would see).
      let shared = table
      shared[0].1 = -1
      #expect(table[0].1 == -1)
      #expect(first != nil)
    }
    #expect(first == nil, "the elements are freed with the table")
  }
}
