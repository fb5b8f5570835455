import Results
import SimulationEngine

/// The records of one traced device (`widgetsim run --trace`), and the spans still open. The device holds
/// one only when traced (an optional: untraced runs pay a nil check where they would record), and it draws
/// nothing, so a traced device's simulation is the untraced one's.
struct TraceRecorder {
  private(set) var records: [TraceRecord] = []
  private var foregroundSince: SimTime?
  private var lowPowerSince: SimTime?
  private var chargingSince: SimTime?
  private var offSince: SimTime?
  /// Per radio (``NetworkKind/index``): the record of its last tail, which a transfer inside it cuts short.
  private var lastTail = Array(repeating: -1, count: NetworkKind.allCases.count)
  /// Per instance: what it showed when last recorded (every instance starts with the placeholder).
  private var shown: [Display] = []

  mutating func add(_ event: TraceEvent, at time: SimTime, lasting duration: SimDuration? = nil) {
    records.append(TraceRecord(time: time, duration: duration, event: event))
  }

  /// What instance `instance` shows now: recorded when it differs from what it showed before.
  mutating func content(_ instance: InstanceID, _ display: Display, at now: SimTime) {
    let index = instance.index
    if index >= shown.count { shown += Array(repeating: .placeholder, count: index + 1 - shown.count) }
    guard shown[index] != display else { return }
    shown[index] = display
    let content: TraceContent =
      switch display {
      case .placeholder: .placeholder
      case .current: .current
      case .behind(let since): .behind(age: now - since)
      }
    add(.content(instance, content), at: now)
  }

  /// The user opened the app: an open, and the start of a foreground stretch unless one is under way.
  mutating func appOpened(at now: SimTime) {
    add(.appOpen, at: now)
    if foregroundSince == nil { foregroundSince = now }
  }

  /// The app left the foreground (its session ended, or the user swiped it away).
  mutating func appLeftForeground(at now: SimTime) {
    guard let since = foregroundSince.take() else { return }
    add(.appForeground, at: since, lasting: now - since)
  }

  /// A transfer on `network`'s radio: its promotion (if any), the transfer, and a full tail, which the next
  /// transfer inside it (or the phone switching off) cuts short.
  mutating func transfer(_ transfer: RadioState.Transfer, network: NetworkKind, tail: SimDuration) {
    let radio = network.index
    if lastTail[radio] >= 0 {
      let index = lastTail[radio]
      let tailEnd = records[index].time + (records[index].duration ?? .zero)
      if transfer.start < tailEnd { records[index].duration = Swift.max(.zero, transfer.start - records[index].time) }
    }
    if transfer.promotion > .zero { add(.radio(network, .promotion), at: transfer.start, lasting: transfer.promotion) }
    add(.radio(network, .active), at: transfer.start + transfer.promotion, lasting: transfer.active)
    lastTail[radio] = records.count
    add(.radio(network, .tail), at: transfer.start + transfer.promotion + transfer.active, lasting: tail)
  }

  /// Every radio's tail ends by `now` (the phone switched off).
  mutating func radiosCut(at now: SimTime) {
    for radio in lastTail.indices where lastTail[radio] >= 0 {
      let index = lastTail[radio]
      let tailEnd = records[index].time + (records[index].duration ?? .zero)
      if now < tailEnd { records[index].duration = Swift.max(.zero, now - records[index].time) }
      lastTail[radio] = -1
    }
  }

  /// The power system's state at `now` (the end of an hour, or the start): the battery's charge, and the
  /// Low Power Mode, charging and switched-off spans that begin or end.
  mutating func power(stateOfCharge: Double, lowPowerMode: Bool, charging: Bool, off: Bool, at now: SimTime) {
    add(.battery(stateOfCharge: stateOfCharge), at: now)
    if let span = TraceRecorder.toggle(&lowPowerSince, on: lowPowerMode, .lowPowerMode, at: now) {
      records.append(span)
    }
    if let span = TraceRecorder.toggle(&offSince, on: off, .poweredOff, at: now) { records.append(span) }
    if let span = TraceRecorder.toggle(&chargingSince, on: charging, .charging, at: now) { records.append(span) }
  }

  /// The charger went on or off at `now` (its daily window's edges).
  mutating func charging(_ on: Bool, at now: SimTime) {
    if let span = TraceRecorder.toggle(&chargingSince, on: on, .charging, at: now) { records.append(span) }
  }

  /// Opens the span `since` when `on`, or closes it: the record of a span that ended at `now`.
  private static func toggle(_ since: inout SimTime?, on: Bool, _ event: TraceEvent, at now: SimTime) -> TraceRecord? {
    if on && since == nil { since = now }
    guard !on, let start = since.take() else { return nil }
    return TraceRecord(time: start, duration: now - start, event: event)
  }

  /// Closes the spans still open at `end` (tails past it are cut there) and returns the records from
  /// `start` on, on a clock that starts there, in time order (equal times in the order recorded).
  mutating func finish(start: SimTime, end: SimTime) -> [TraceRecord] {
    radiosCut(at: end)
    appLeftForeground(at: end)
    if let span = TraceRecorder.toggle(&lowPowerSince, on: false, .lowPowerMode, at: end) { records.append(span) }
    if let span = TraceRecorder.toggle(&offSince, on: false, .poweredOff, at: end) { records.append(span) }
    if let span = TraceRecorder.toggle(&chargingSince, on: false, .charging, at: end) { records.append(span) }
    let ordered = records.indices.sorted {
      (records[$0].time, $0) < (records[$1].time, $1)
    }
    // What each instance showed when the warm-up ended: recorded at the start, as it would be lost with the
    // warm-up's records.
    var carried: [TraceRecord] = []
    for index in ordered where records[index].time < start {
      guard case .content(let instance, let content) = records[index].event else { continue }
      let record = TraceRecord(
        time: .zero, event: .content(instance, content.aged(by: start - records[index].time)))
      if let same = carried.firstIndex(where: { $0.event.instance == instance }) {
        carried[same] = record
      } else {
        carried.append(record)
      }
    }
    return carried
      + ordered.compactMap { index -> TraceRecord? in
        let record = records[index]
        // A state that lasted no time (a tail cut at once by the next transfer, a span opened at the end).
        if record.duration == .zero && record.event.isState { return nil }
        return record.shifted(from: start, to: end)
      }
  }
}

extension TraceEvent {
  /// The instance a content record is about.
  var instance: InstanceID? {
    if case .content(let instance, _) = self { return instance }
    return nil
  }

  /// Whether it is a state's span (radio phase, foreground, power), as opposed to an instant or a request.
  var isState: Bool {
    switch self {
    case .radio, .appForeground, .lowPowerMode, .charging, .poweredOff: true
    default: false
    }
  }
}
