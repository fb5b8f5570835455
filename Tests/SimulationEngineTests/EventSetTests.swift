import PropertyBased
import Testing

@testable import SimulationEngine

@Suite("Event set")
struct EventSetTests {
  /// One operation of a random schedule: insert at a time (few distinct times, so ties abound), pop, or
  /// cancel the k-th still-pending event.
  enum Operation: Sendable, CustomStringConvertible {
    case insert(time: Int64)
    case pop
    case cancel(pick: Int)

    var description: String {
      switch self {
      case .insert(let time): "insert(\(time))"
      case .pop: "pop"
      case .cancel(let pick): "cancel(\(pick))"
      }
    }
  }

  static let operation: Generator<Operation, AnySequence<Any>> = Gen<Int>.int(in: 0...99).map { roll in
    switch roll {
    case 0..<55: Operation.insert(time: Int64(roll % 8))
    case 55..<85: Operation.pop
    default: Operation.cancel(pick: roll)
    }
  }.eraseToAny()

  @Test("pops in the order of a stable sort by time, over random schedules with many equal times")
  func popOrderMatchesStableSort() {
    deterministicProperty(cases: 300, seed: 20_261_121, input: Gen<Int>.int(in: 0...15).array(of: 0...400)) {
      times in
      var events = EventSet(capacity: 4)
      for (index, time) in times.enumerated() {
        events.insert(at: SimTime(microseconds: Int64(time)), kind: EventKind(rawValue: 7), target: UInt32(index))
      }
      let expected = times.enumerated().sorted { $0.element < $1.element }.map { UInt32($0.offset) }  // stable
      var popped: [UInt32] = []
      while let event = events.popNext() { popped.append(event.target) }
      return popped == expected && events.isEmpty
    }
  }

  @Test("interleaved inserts, pops and cancels agree with a sorted-list reference model")
  func randomOperationsMatchReference() {
    deterministicProperty(cases: 300, seed: 7, input: EventSetTests.operation.array(of: 0...300)) { operations in
      var events = EventSet(capacity: 4)
      // Reference: pending (time, sequence, target, handle) kept sorted by (time, sequence).
      var reference: [(time: Int64, sequence: Int, target: UInt32, handle: EventHandle)] = []
      var now: Int64 = 0
      var inserted = 0
      for operation in operations {
        switch operation {
        case .insert(let offset):
          let handle = events.insert(
            at: SimTime(microseconds: now + offset), kind: EventKind(rawValue: 1), target: UInt32(inserted))
          reference.append((now + offset, inserted, UInt32(inserted), handle))
          reference.sort { ($0.time, $0.sequence) < ($1.time, $1.sequence) }
          inserted += 1
        case .pop:
          let event = events.popNext()
          if reference.isEmpty {
            guard event == nil else { return false }
          } else {
            let head = reference.removeFirst()
            guard let event, event.target == head.target, event.time.microseconds == head.time else { return false }
            guard !events.isPending(head.handle) else { return false }
            now = head.time
          }
        case .cancel(let pick):
          guard !reference.isEmpty else { continue }
          let victim = reference.remove(at: pick % reference.count)
          guard events.cancel(victim.handle), !events.cancel(victim.handle) else { return false }
        }
        guard events.count == reference.count else { return false }
      }
      return true
    }
  }

  @Test("a cancelled event never runs; cancelling twice or after it ran returns false")
  func cancellation() {
    var events = EventSet()
    let first = events.insert(at: SimTime(microseconds: 10), kind: EventKind(rawValue: 1), target: 1)
    let second = events.insert(at: SimTime(microseconds: 20), kind: EventKind(rawValue: 1), target: 2)
    expectTrue(events.isPending(first))
    expectTrue(events.cancel(first))
    expectTrue(!events.isPending(first))
    expectTrue(!events.cancel(first))
    expectTrue(events.count == 1)
    expectTrue(events.nextTime() == SimTime(microseconds: 20))
    expectTrue(events.popNext()?.target == 2)
    expectTrue(!events.cancel(second))
    expectTrue(events.popNext() == nil)
  }

  @Test("superseding replaces the pending event and the new one runs at its own time")
  func supersede() {
    var events = EventSet()
    let afterReload = events.insert(at: SimTime(microseconds: 900), kind: EventKind(rawValue: 1), target: 3)
    events.insert(at: SimTime(microseconds: 500), kind: EventKind(rawValue: 2), target: 9)
    let replacement = events.supersede(
      afterReload, at: SimTime(microseconds: 100), kind: EventKind(rawValue: 3), target: 3)
    expectTrue(!events.isPending(afterReload))
    expectTrue(events.isPending(replacement))
    expectTrue(events.count == 2)
    expectTrue(events.popNext()?.kind == EventKind(rawValue: 3))
    expectTrue(events.popNext()?.target == 9)
    expectTrue(events.popNext() == nil)
    // Superseding a handle that already ran still schedules the replacement.
    let late = events.supersede(replacement, at: SimTime(microseconds: 1_000), kind: EventKind(rawValue: 4), target: 3)
    expectTrue(events.isPending(late))
    expectTrue(events.popNext()?.kind == EventKind(rawValue: 4))
  }

  @Test("mass cancellation triggers a rebuild that keeps the remaining order and frees slots")
  func rebuildAfterManyCancellations() {
    var events = EventSet()
    var handles: [EventHandle] = []
    for index in 0..<1_000 {
      handles.append(
        events.insert(at: SimTime(microseconds: Int64(index % 37)), kind: EventKind(rawValue: 1), target: UInt32(index))
      )
    }
    for (index, handle) in handles.enumerated() where index % 10 != 0 {
      expectTrue(events.cancel(handle))
    }
    expectTrue(events.count == 100)
    expectTrue(events.heapCount < 1_000)  // the rebuild dropped cancelled keys
    let expected = (0..<1_000).filter { $0 % 10 == 0 }.sorted { ($0 % 37, $0) < ($1 % 37, $1) }.map(UInt32.init)
    var popped: [UInt32] = []
    while let event = events.popNext() { popped.append(event.target) }
    #expect(popped == expected)
    expectTrue(events.slotCount <= 1_000)
  }

  @Test("renumbering sequences keeps the order of pending events")
  func renumberingKeepsOrder() {
    var events = EventSet()
    for index in 0..<200 {
      events.insert(
        at: SimTime(microseconds: Int64((index * 7) % 13)), kind: EventKind(rawValue: 1), target: UInt32(index))
    }
    events.renumberSequences()
    for index in 200..<260 {
      events.insert(
        at: SimTime(microseconds: Int64((index * 7) % 13)), kind: EventKind(rawValue: 1), target: UInt32(index))
    }
    let expected = (0..<260).sorted { (($0 * 7) % 13, $0) < (($1 * 7) % 13, $1) }.map(UInt32.init)
    var popped: [UInt32] = []
    while let event = events.popNext() { popped.append(event.target) }
    #expect(popped == expected)
  }

  @Test("removeAll empties the set and makes old handles stale")
  func removeAll() {
    var events = EventSet()
    let handle = events.insert(at: SimTime(microseconds: 5), kind: EventKind(rawValue: 1), target: 0)
    events.insert(at: SimTime(microseconds: 6), kind: EventKind(rawValue: 1), target: 1)
    events.removeAll()
    expectTrue(events.isEmpty)
    expectTrue(!events.isPending(handle))
    expectTrue(events.popNext() == nil)
    events.insert(at: SimTime(microseconds: 1), kind: EventKind(rawValue: 1), target: 2)
    expectTrue(events.popNext()?.target == 2)
  }

  @Test("negative and extreme times order correctly")
  func extremeTimes() {
    var events = EventSet()
    let times: [Int64] = [Int64.max, 0, -5, Int64.min, 1 << 62, -(1 << 62)]
    for (index, time) in times.enumerated() {
      events.insert(at: SimTime(microseconds: time), kind: EventKind(rawValue: 1), target: UInt32(index))
    }
    var popped: [Int64] = []
    while let event = events.popNext() { popped.append(event.time.microseconds) }
    #expect(popped == times.sorted())
  }
}
