/// One slot per item of a batch shared by threads: each slot written by exactly one thread, and read (and
/// emptied) after they all finish. What the simulated devices of a goodness-of-fit batch log, and what the
/// lines of a parsed batch hold.
final class ThreadSlots<Element>: @unchecked Sendable {
  private let slots: UnsafeMutableBufferPointer<Element>
  private let empty: Element

  init(count: Int, empty: Element) {
    slots = .allocate(capacity: count)
    _ = slots.initialize(from: repeatElement(empty, count: count))
    self.empty = empty
  }

  deinit {
    slots.deinitialize()
    slots.deallocate()
  }

  func set(_ index: Int, _ value: Element) { slots[index] = value }

  /// The slot's value, leaving it empty.
  func take(_ index: Int) -> Element {
    defer { slots[index] = empty }
    return slots[index]
  }
}
