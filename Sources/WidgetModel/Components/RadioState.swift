import Results
import SimulationEngine

/// One radio's state machine, shared by every widget, push and activity of the device.
///
/// idle -> promotion -> active -> tail -> idle. A transfer that starts inside the previous one's tail reuses
/// the connected state: no promotion, and the old tail is cut short where the new transfer starts (its
/// remainder is never spent); the new transfer brings its own full tail. Transfers that overlap are served
/// one after another. Tail energy is booked once its length is known (cut short, or run out), to the
/// subject whose transfer left it, in the hour the tail began.
struct RadioState {
  /// What the radio still owes after its last transfer.
  enum Tail: Equatable {
    /// Idle: no transfer yet, or the last one's tail booked.
    case none
    /// The tail after the transfer that ended at ``busyUntil``, to be booked to `subject` (as `app_network`
    /// when it was the app's fetch).
    case pending(subject: Int, appSide: Bool)
  }

  /// End of the last transfer: where its tail begins.
  private(set) var busyUntil = SimTime(microseconds: Int64.min / 4)
  private(set) var tail = Tail.none

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
  /// finished tail energy into `ledger` (all as `app_network` when `appSide`).
  mutating func transfer(
    bytes: Double, subject: Int, at time: SimTime, appSide: Bool = false, radio: RadioConfiguration,
    ledger: inout EnergyLedger
  ) -> Transfer {
    let start = Swift.max(time, busyUntil)
    let tailEnd = busyUntil + SimDuration(seconds: radio.tailSeconds)
    let promoted: Bool
    if tail != .none && start < tailEnd {
      // Inside the tail: stay connected; the tail so far is all the old transfer's tail costs.
      bookTail(seconds: (start - busyUntil).seconds, radio: radio, ledger: &ledger)
      promoted = false
    } else {
      bookTail(seconds: radio.tailSeconds, radio: radio, ledger: &ledger)
      promoted = true
      ledger.book(
        radio.promotionWatts * radio.promotionSeconds, hourIndex: RadioState.hour(start), subject: subject,
        component: appSide ? .appNetwork : .radioPromotion)
    }
    let seconds = bytes * 8 / radio.throughputBitsPerSecond
    ledger.book(
      radio.transferWatts * seconds, hourIndex: RadioState.hour(start), subject: subject,
      component: appSide ? .appNetwork : .radioActive)
    let promotion = SimDuration(seconds: promoted ? radio.promotionSeconds : 0)
    let transferStart = start + promotion
    busyUntil = transferStart + SimDuration(seconds: seconds)
    tail = .pending(subject: subject, appSide: appSide)
    return Transfer(
      promoted: promoted, seconds: (promoted ? radio.promotionSeconds : 0) + seconds, start: start,
      promotion: promotion, active: busyUntil - transferStart)
  }

  /// Books the last tail if it has run out by `now` (hour ticks and the end of the run call this).
  mutating func settle(at now: SimTime, radio: RadioConfiguration, ledger: inout EnergyLedger) {
    guard tail != .none, now >= busyUntil + SimDuration(seconds: radio.tailSeconds) else { return }
    bookTail(seconds: radio.tailSeconds, radio: radio, ledger: &ledger)
  }

  /// Ends the tail now (the device switched networks or turned off).
  mutating func cut(at now: SimTime, radio: RadioConfiguration, ledger: inout EnergyLedger) {
    guard tail != .none else { return }
    let seconds = Swift.min(radio.tailSeconds, Swift.max(0, (now - busyUntil).seconds))
    bookTail(seconds: seconds, radio: radio, ledger: &ledger)
  }

  /// Books the pending tail's first `seconds` (nothing when none is pending), and the radio is idle.
  private mutating func bookTail(seconds: Double, radio: RadioConfiguration, ledger: inout EnergyLedger) {
    guard case .pending(let subject, let appSide) = tail else { return }
    ledger.book(
      radio.tailWatts * seconds, hourIndex: RadioState.hour(busyUntil), subject: subject,
      component: appSide ? .appNetwork : .radioTail)
    tail = .none
  }

  static func hour(_ time: SimTime) -> Int {
    Int(time.microseconds / SimDuration.hours(1).microseconds)
  }
}
