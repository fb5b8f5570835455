import WidgetModel

/// A batch of simulated devices' log records, one slot per device, each written by exactly one thread and
/// read after they all finish.
final class EntryBatches: @unchecked Sendable {
  private let slots: UnsafeMutableBufferPointer<[FieldLogEntry]>

  init(count: Int) {
    slots = .allocate(capacity: count)
    _ = slots.initialize(from: repeatElement([], count: count))
  }

  deinit {
    slots.deinitialize()
    slots.deallocate()
  }

  func set(_ index: Int, _ entries: [FieldLogEntry]) { slots[index] = entries }

  func take(_ index: Int) -> [FieldLogEntry] {
    defer { slots[index] = [] }
    return slots[index]
  }
}
