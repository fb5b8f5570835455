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

extension FieldLogEntry {
  /// A simulated device's log, read back as a field log is (written to lines, each line parsed), so that a
  /// simulation and real logs go through one reader.
  static func entries(of log: FieldLog, configuration: ScenarioConfiguration) -> [FieldLogEntry] {
    var reader = FieldLogReader()
    var entries: [FieldLogEntry] = []
    var number = 0
    for line in FieldLogWriter.lines(log, configuration: configuration).split(separator: "\n") {
      number += 1
      // The writer's own lines: a failure here is a bug, not bad input.
      guard let entry = try? reader.entry(Array(line.utf8), path: "<simulated>", line: number) else {
        preconditionFailure("a simulated field log line does not read back: \(line)")
      }
      entries.append(entry)
    }
    return entries
  }
}
