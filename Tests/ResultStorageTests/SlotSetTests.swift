import Testing

@testable import ResultStorage

@Suite("Slot sets")
struct SlotSetTests {
  @Test("a slot set counts, lists and removes the slots of any range, across its words")
  func slotSets() {
    var set = SlotSet(capacity: 200)
    let slots = [0, 1, 63, 64, 65, 127, 128, 150, 199]
    for slot in slots { set.insert(slot) }
    // Ranges within a word, across words, ending on a word's boundary, empty, and past the set's words
    // either side (clamped: 200 slots take four words, 256 bits).
    for range in [
      0..<200, 0..<1, 1..<64, 63..<65, 64..<128, 100..<151, 130..<150, 199..<200, 5..<5, 128..<192, -5..<10,
      150..<300, -64..<400, 256..<300,
    ] {
      let inside = slots.filter { range.contains($0) }
      #expect(Array(set.members(in: range)) == inside, "\(range)")
      #expect(set.count(in: range) == inside.count, "\(range)")
      var removed = set
      removed.subtract(range)
      #expect(Array(removed) == slots.filter { !range.contains($0) }, "\(range)")
    }
    #expect(Array(set) == slots && set.count == slots.count)
  }
}
