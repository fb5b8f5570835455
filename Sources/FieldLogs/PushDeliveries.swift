import WidgetModel

/// How the pushes of one type fared: the server's sends (its send log) matched to what the app saw
/// arrive, by the local hour of the send. APNs keeps one undelivered push per app and topic, so a newer send
/// replaces an older one: a delivery is of the last send before it, and a send with no delivery before the
/// next one was replaced (its delay is known to pass the next send: a lower bound).
public struct PushDeliveries: Sendable {
  /// A delay from send to delivery, exact or a lower bound.
  public struct Delay: Sendable {
    public let seconds: Double
    public let exact: Bool
  }

  /// Sends and deliveries by the local hour of the send.
  public private(set) var sent = Array(repeating: 0, count: 24)
  public private(set) var delivered = Array(repeating: 0, count: 24)
  /// Delays of the delivered sends (seconds), by the local hour of the send.
  public private(set) var delays: [[Double]] = Array(repeating: [], count: 24)
  /// The delays the system's own delivery delay explains, for its fit: sends the phone could take at once
  /// (awake when the push waits for it, the app not dormant, below the caps), exact or lower bounds.
  public private(set) var fitting: [Delay] = []
  /// Deliveries the app logged with no send before them in the server's log.
  public private(set) var unmatched = 0

  public var sentCount: Int { sent.reduce(0, +) }
  public var deliveredCount: Int { delivered.reduce(0, +) }
  public var allDelays: [Double] { delays.flatMap { $0 } }

  /// What the rules say a send's delay cannot show: `usable` is false for a send whose delivery the phone's
  /// state held back (asleep, dormant, near a cap), `held` true for a delivery the caps held.
  struct Rules {
    let usable: (Int64) -> Bool
    let held: (Int64) -> Bool
    /// Past this time (for a send at the argument) the phone may have held the push (the user asleep):
    /// a delay that runs past it is a lower bound there.
    let limit: (Int64) -> Int64
  }

  /// Adds one phone: its sends and deliveries (UTC microseconds, each in time order), the end of what both
  /// logs cover (its app log's last record, or the server log's last send if earlier), and its clock's
  /// offset ahead of UTC.
  mutating func add(sends: [Int64], deliveries: [Int64], end: Int64, offsetSeconds: Int, rules: Rules) {
    var next = 0
    for (index, send) in sends.enumerated() {
      // Deliveries before this send belong to no send of the log.
      while next < deliveries.count && deliveries[next] < send {
        unmatched += 1
        next += 1
      }
      let hour = Swift.min(
        23, Int(FieldLogTime(utcMicroseconds: send, offsetSeconds: offsetSeconds).localSecondOfDay / 3_600))
      sent[hour] += 1
      let replacedAt = index + 1 < sends.count ? sends[index + 1] : end
      if next < deliveries.count && deliveries[next] < replacedAt
        || index + 1 == sends.count && next < deliveries.count && deliveries[next] <= end
      {
        let seconds = Double(deliveries[next] - send) / 1e6
        delivered[hour] += 1
        delays[hour].append(seconds)
        if rules.usable(send) && !rules.held(deliveries[next]), rules.limit(send) > send {
          let limit = rules.limit(send)
          fitting.append(
            deliveries[next] <= limit
              ? Delay(seconds: seconds, exact: true) : Delay(seconds: Double(limit - send) / 1e6, exact: false))
        }
        next += 1
      } else if rules.usable(send) {
        let bound = Swift.min(replacedAt, rules.limit(send))
        if bound > send { fitting.append(Delay(seconds: Double(bound - send) / 1e6, exact: false)) }
      }
    }
    // Deliveries after the end are outside what the server's log covers: neither matched nor unmatched.
    while next < deliveries.count && deliveries[next] <= end {
      unmatched += 1
      next += 1
    }
  }

  /// The deliveries in `times` (in time order) within `window` microseconds before `t`, `t` included.
  static func count(_ times: [Int64], before t: Int64, window: Int64) -> Int {
    FieldSample.partition(times) { $0 <= t } - FieldSample.partition(times) { $0 <= t - window }
  }

  /// Whether a delivery at `t` came exactly when a cap let it: one `window` after an earlier delivery
  /// (the log keeps milliseconds).
  static func heldByCap(_ times: [Int64], at t: Int64, windows: [Int64]) -> Bool {
    windows.contains { window in
      let index = FieldSample.partition(times) { $0 < t - window - 2_000 }
      return index < times.count && times[index] <= t - window + 2_000
    }
  }
}
