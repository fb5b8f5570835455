import SimulationEngine

/// The records of one device's field log, as its app would have written them. A device holds one only
/// when a field log is asked for (an optional, like the trace): it draws nothing, so the device's
/// simulation is the one a run makes.
struct FieldRecorder {
  private(set) var records: [FieldRecord] = []
  private var foreground = false

  mutating func add(_ event: FieldEvent, at time: SimTime) {
    records.append(FieldRecord(time: time, event: event))
  }

  /// The user opened the app: a foreground record unless it is in the foreground already.
  mutating func appOpened(fromWidget: Bool, at now: SimTime) {
    guard !foreground else { return }
    foreground = true
    add(.appForeground(fromWidget: fromWidget), at: now)
  }

  /// The app left the foreground (its session ended, or the user swiped it away).
  mutating func appLeftForeground(at now: SimTime) {
    guard foreground else { return }
    foreground = false
    add(.appBackground, at: now)
  }

  /// The records from `start` until `end` (after a warm-up, before the run's end), on a clock that starts
  /// at `start`: in time order, as recorded.
  func finish(start: SimTime, end: SimTime) -> [FieldRecord] {
    let shift = start - SimTime.zero
    return records.compactMap { record in
      guard record.time >= start && record.time < end else { return nil }
      let next: FieldEvent
      if case .timeline(let widget, let date?, let entries) = record.event {
        next = .timeline(widget: widget, next: date - shift, entries: entries)
      } else {
        next = record.event
      }
      return FieldRecord(time: record.time - shift, event: next)
    }
  }
}
