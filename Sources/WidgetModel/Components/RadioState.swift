import Results
import SimulationEngine

/// One radio's state machine, shared by every widget, push and activity of the device.
///
/// idle -> promotion -> active -> tail -> idle. A transfer that starts inside the previous one's tail reuses
/// the connected state: no promotion, and the old tail is cut short where the new transfer starts (its
/// remainder is never spent); the new transfer brings its own full tail. Transfers that overlap are served
/// one after another. Tail energy is booked once its length is known (cut short, or run out), to the
/// subject whose transfer left it, in the hour the tail began.
enum RadioState: Equatable {
  /// No transfer yet, or the last one's tail booked. A transfer still waits for the last one's end
  /// (`lastEnd`: transfers that overlap are served one after another).
  case idle(lastEnd: SimTime)
  /// Connected: the transfer that ends at `end` (the tail begins there) was `subject`'s, and its tail is not
  /// yet booked (as `app_network` when it was the app's fetch). Before `end` the radio is promoting or
  /// active; from `end` for the radio's tail length it is in its tail.
  case connected(end: SimTime, subject: Int, appSide: Bool)

  /// A radio that has carried nothing.
  static let initial = RadioState.idle(lastEnd: SimTime(microseconds: Int64.min / 4))

  /// End of the last transfer: where its tail begins.
  var busyUntil: SimTime {
    switch self {
    case .idle(let end), .connected(let end, _, _): end
    }
  }

  /// What one transfer cost and how long it took the build, and when the radio worked on it (for traces).
  struct Transfer {
    let promoted: Bool
    /// Seconds from request to last byte: promotion (if any) plus transfer.
    let seconds: Double
    /// When the radio took it up (after any transfer before it), its promotion (zero inside a tail) and the
    /// transfer's own length; the tail follows.
    let start: SimTime
    let promotion: SimDuration
    let active: SimDuration
  }

  /// Transfers `bytes` for `subject` starting no earlier than `time`, booking promotion, active and any
  /// finished tail energy to `energy` (all as `app_network` when `appSide`).
  mutating func transfer(
    bytes: Double, subject: Int, at time: SimTime, appSide: Bool = false, radio: RadioConfiguration,
    energy: inout some EnergyRecording
  ) -> Transfer {
    let start = Swift.max(time, busyUntil)
    let tailEnd = busyUntil + SimDuration(seconds: radio.tailSeconds)
    let promoted: Bool
    let seconds = bytes * 8 / radio.throughputBitsPerSecond
    if case .connected = self, start < tailEnd {
      // Inside the tail: stay connected; the tail so far is all the old transfer's tail costs.
      bookTail(seconds: (start - busyUntil).seconds, radio: radio, energy: &energy)
      promoted = false
      energy.book(
        radio.transferWatts * seconds, hourIndex: RadioState.hour(start), subject: subject,
        component: appSide ? .appNetwork : .radioActive)
    } else {
      bookTail(seconds: radio.tailSeconds, radio: radio, energy: &energy)
      promoted = true
      // The promotion, then the transfer: one subject, one hour.
      energy.book(
        radio.promotionWatts * radio.promotionSeconds, radio.transferWatts * seconds,
        hourIndex: RadioState.hour(start), subject: subject,
        components: appSide ? (.appNetwork, .appNetwork) : (.radioPromotion, .radioActive))
    }
    let promotion = SimDuration(seconds: promoted ? radio.promotionSeconds : 0)
    let transferStart = start + promotion
    let end = transferStart + SimDuration(seconds: seconds)
    self = .connected(end: end, subject: subject, appSide: appSide)
    return Transfer(
      promoted: promoted, seconds: (promoted ? radio.promotionSeconds : 0) + seconds, start: start,
      promotion: promotion, active: end - transferStart)
  }

  /// Books the last tail if it has run out by `now` (hour ticks and the end of the run call this).
  mutating func settle(at now: SimTime, radio: RadioConfiguration, energy: inout some EnergyRecording) {
    guard case .connected(let end, _, _) = self, now >= end + SimDuration(seconds: radio.tailSeconds) else { return }
    bookTail(seconds: radio.tailSeconds, radio: radio, energy: &energy)
  }

  /// Ends the tail now (the device switched networks or turned off).
  mutating func cut(at now: SimTime, radio: RadioConfiguration, energy: inout some EnergyRecording) {
    guard case .connected(let end, _, _) = self else { return }
    let seconds = Swift.min(radio.tailSeconds, Swift.max(0, (now - end).seconds))
    bookTail(seconds: seconds, radio: radio, energy: &energy)
  }

  /// Books the pending tail's first `seconds` (nothing when idle), and the radio is idle.
  private mutating func bookTail(seconds: Double, radio: RadioConfiguration, energy: inout some EnergyRecording) {
    guard case .connected(let end, let subject, let appSide) = self else { return }
    energy.book(
      radio.tailWatts * seconds, hourIndex: RadioState.hour(end), subject: subject,
      component: appSide ? .appNetwork : .radioTail)
    self = .idle(lastEnd: end)
  }

  static func hour(_ time: SimTime) -> Int {
    Int(time.microseconds / SimDuration.hours(1).microseconds)
  }
}
