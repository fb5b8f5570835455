import Testing

@testable import ResultStorage

/// A spare pool hands back the last fitting value given, drops the ones that no longer fit, and keeps at most
/// its capacity.
@Suite("Spare pools")
struct SparePoolTests {
  @Test("the last value given comes back first; an empty pool gives nothing")
  func lastInFirstOut() {
    let pool = SparePool<[Int]>(capacity: 4)
    #expect(pool.take() == nil)
    pool.give([1])
    pool.give([2, 2])
    #expect(pool.count == 2)
    #expect(pool.take() == [2, 2])
    #expect(pool.take() == [1])
    #expect(pool.take() == nil)
  }

  @Test("taking a fitting value drops every value that does not fit, and keeps the others")
  func unfitValuesAreDropped() {
    let pool = SparePool<[Int]>(capacity: 8)
    for size in [3, 1, 3, 2, 1] { pool.give(Array(repeating: size, count: size)) }
    // Sizes 3, 3 and 1, 1 fit "odd"; the 2 is dropped, the last odd one comes back.
    #expect(pool.take(fitting: { $0.count % 2 == 1 }) == [1])
    #expect(pool.count == 3)
    #expect(pool.take(fitting: { $0.count == 3 }) == [3, 3, 3])
    #expect(pool.count == 1)
    #expect(pool.take(fitting: { $0.count == 5 }) == nil)
    #expect(pool.count == 0)
  }

  @Test("past its capacity a value handed back is dropped")
  func capacityHolds() {
    let pool = SparePool<Int>(capacity: 2)
    for value in 1...5 { pool.give(value) }
    #expect(pool.count == 2)
    #expect(pool.take() == 2)
    #expect(pool.take() == 1)
  }
}
