import ResultStorage
import SimulationEngine

/// What the app's servers see, per UTC minute: fetch requests and their bytes, pushes sent and delivered,
/// and requests by ``ServerSource``.
///
/// A device's local clock runs `offset` ahead of UTC (its time zone); local time t is UTC minute
/// `(t - offset) / 1 min`. Offsets are limited to ±14 h, so the minutes cover day 0 00:00 UTC minus 14 h to
/// the last day plus 14 h. Counts are integers: any number of devices add up the same way in any order.
public struct ServerLoad: Sendable, DayCleared {
  /// The first minute covered, relative to day 0 00:00 UTC.
  public static let firstMinute = -14 * 60
  public package(set) var minuteCount: Int
  /// Fetched bytes and delivered pushes per minute, of the requests added to the minutes (all of them when
  /// ``applyPending()``; a replication that keeps its requests has them in its ``minuteTotals()`` only).
  public package(set) var bytes: [Int128]
  public package(set) var pushesDelivered: [Int64]
  /// Requests by slot and source (``ServerSource/bySlot``: fetches, pushes sent, token registrations): the one count
  /// per request (totals are derived, so a fetch touches two arrays, not three). Exact counts in 4-byte cells
  /// (a 30-day result's minutes are emptied every replication: the smaller, the cheaper).
  var bySource: CompactCounts<UInt32>
  /// The slots that hold a request or a delivered push; every other slot's counts are all zero. One phone's
  /// replication asks in a few minutes of the day: its result is merged, emptied and summed over these
  /// rather than over every minute of the run.
  var busySlots = SlotSet(capacity: 0)
  /// Requests and bytes per UTC second of the run (fleets only; empty otherwise).
  public package(set) var seconds = ServerSeconds()
  /// Requests recorded but not yet added to the minutes (see ``applyPending()``), or kept
  /// (``keepsRequests``) to be added to a sum's.
  @usableFromInline var pending: [PendingRequest] = []
  /// By source, the UTC second of the recording phone's last request of it (``startDevice()``): a request in
  /// the same second is the same phone's again.
  @usableFromInline var lastSecondBySource = [Int64](repeating: Int64.min, count: ServerSource.count)
  /// The recording phone's requests in its current hour, each direction (``PhoneHours``; fleets only).
  var phoneHour = PhoneHourTally()
  /// How many requests are kept before they are added anyway: ``pendingLimit``, or a batch's while a fleet
  /// thread keeps them across devices (``RequestBatch``).
  @usableFromInline var pendingCapacity: Int { batch == nil ? ServerLoad.pendingLimit : RequestBatch.limit }
  /// The sort of a fleet thread's batches, while it keeps requests across devices; nil otherwise.
  @usableFromInline var batch: RequestBatch?
  /// Whether a device's requests stay in ``pending`` when it ends, rather than being added to these minutes:
  /// a replication whose load is only summarised (``minuteTotals()``) and then added into a run's sum
  /// (``absorb(_:)``) keeps them, and they go straight into the sum's minutes. Its own minutes would be
  /// written, read, added and emptied again for a few hundred requests, each a cache miss in a table of
  /// about a megabyte. At ``pendingLimit`` requests the load stops keeping them: those and the rest go to its
  /// minutes. ``minuteTotals()``, ``fetches``, ``pushesSent``, ``absorb(_:)`` and ``merge(_:)`` take kept
  /// requests; the minute-by-minute readers (``bytes``, ``requests(slot:source:)``, ``total(_:slots:)``,
  /// ``usedSlots``) trap on a load that ``holdsKeptRequests``, and the binary encoding and the warm-up's
  /// cut on any request not yet added.
  package var keepsRequests = false
  /// The minutes `0..<openedSlots` are emptied for this run (all of them, unless the load was reset: see
  /// ``DayCleared``).
  var openedSlots = 0

  /// Fetch requests per minute, every source.
  public var fetches: [Int64] { minuteTotals().fetches }
  /// Pushes sent per minute to single devices, every type (broadcasts apart: see ``pushesSent(scale:)``).
  public var pushesSent: [Int64] { minuteTotals().devicePushes }

  /// Pushes sent per minute by the real fleet: per-device pushes times `scale` plus the broadcast channels'
  /// requests, which are the fleet's already.
  public func pushesSent(scale: Double) -> [Double] { minuteTotals().pushesSent(scale: scale) }

  /// The slots from the first to the last that holds a request or a delivered push; nil when none does.
  public var usedSlots: Range<Int>? {
    precondition(!holdsKeptRequests, "the minutes of a load that keeps its requests")
    guard let first = (0..<minuteCount).first(where: holdsSomething),
      let last = (0..<minuteCount).last(where: holdsSomething)
    else { return nil }
    return first..<(last + 1)
  }

  /// Whether the slot holds a request, fetched bytes or a delivered push.
  func holdsSomething(_ slot: Int) -> Bool {
    bytes[slot] != 0 || pushesDelivered[slot] != 0
      || !bySource.isZero(ServerSource.bySlot.start(ofRow: slot), count: ServerSource.count)
  }

  /// A source's requests over the minutes `slots` (all of them by default).
  public func total(_ source: ServerSource, slots: Range<Int>? = nil) -> Int64 {
    precondition(!holdsKeptRequests, "the minutes of a load that keeps its requests")
    let range = slots ?? 0..<minuteCount
    precondition(range.lowerBound >= 0 && range.upperBound <= minuteCount, "minutes \(range) of \(minuteCount)")
    return bySource.cells.withUnsafeBufferPointer { cells in
      var sum: Int64 = 0
      for slot in range {
        let index = ServerSource.bySlot.index(slot, source.rawValue)
        sum += cells[index] == UInt32.max ? Int64(bySource[index]) : Int64(cells[index])
      }
      return sum
    }
  }

  /// Largest time-zone offset a device may have, either way.
  public static let maximumOffset = SimDuration.hours(14)

  /// No minutes at all (a placeholder until a shape is known).
  public init() {
    minuteCount = 0
    bytes = []
    pushesDelivered = []
    bySource = CompactCounts(count: 0)
  }

  package init(days: Int, perSecond: Bool = false) {
    if perSecond { seconds = ServerSeconds(days: days) }
    minuteCount = days * 1_440 + 2 * 14 * 60
    busySlots = SlotSet(capacity: minuteCount)
    openedSlots = minuteCount
    bytes = Array(repeating: 0, count: minuteCount)
    pushesDelivered = Array(repeating: 0, count: minuteCount)
    bySource = CompactCounts(count: minuteCount * ServerSource.count)
  }

  /// Position of the UTC minute of local time `time` on a device `offset` ahead of UTC.
  @inlinable
  static func slot(_ time: SimTime, offset: SimDuration) -> Int {
    // Shifted by 14 h so it is never negative for a clamped offset: division then floors.
    let shifted = time.microseconds - offset.microseconds - Int64(ServerLoad.firstMinute) * 60_000_000
    return shifted >= 0 ? Int(shifted / 60_000_000) : -1
  }

  /// Requests kept before they are added anyway (24 bytes each: 1.5 MB), so a device that pushes every second
  /// for years does not hold them all.
  @usableFromInline static let pendingLimit = 1 << 16

  /// A fetch request of `source` for `amount` bytes at local time `time` (kept until ``applyPending()``, or
  /// for a sum: ``keepsRequests``).
  @inlinable @inline(__always)
  package mutating func recordFetch(_ source: ServerSource, bytes amount: Double, at time: SimTime, offset: SimDuration)
  {
    if pending.count >= pendingCapacity { applyKept() }
    append(PendingRequest(source, bytes: amount, at: time, offset: offset, delivered: false))
  }

  /// A push of type `source` sent (counted by source) or delivered (kept as ``recordFetch(_:bytes:at:offset:)``
  /// keeps a fetch).
  @inlinable @inline(__always)
  package mutating func recordPush(_ source: ServerSource, delivered: Bool, at time: SimTime, offset: SimDuration) {
    if pending.count >= pendingCapacity { applyKept() }
    append(PendingRequest(source, bytes: 0, at: time, offset: offset, delivered: delivered))
  }

  /// Keeps `request`, marked ``PendingRequest/repeated`` when this phone made a request of its source in its
  /// UTC second already (a phone records its requests in time order, so they follow each other).
  @inlinable @inline(__always)
  mutating func append(_ request: PendingRequest) {
    var request = request
    if !request.delivered {
      let micros = request.utcMicros
      let second = micros >= 0 ? micros / 1_000_000 : (micros + 1) / 1_000_000 - 1
      let source = Int(request.source)
      request.repeated = lastSecondBySource[source] == second
      lastSecondBySource[source] = second
      if !seconds.isEmpty { countPhoneHour(source: source, second: second) }
    }
    pending.append(request)
  }

  /// One more request of `source` (a raw value) in UTC second `second` by the recording phone.
  @usableFromInline mutating func countPhoneHour(source: Int, second: Int64) {
    phoneHour.count(source: source, second: second, into: &seconds.phoneHours)
  }

  /// A new phone starts recording: none of its requests is a repeat of the last phone's.
  package mutating func startDevice() {
    phoneHour.startPhone(into: &seconds.phoneHours)
    for source in lastSecondBySource.indices { lastSecondBySource[source] = Int64.min }
  }

  /// Adds the requests recorded since the last call to the per-minute (and per-second) counts. A device's
  /// requests are kept while it runs and added each midnight and when it ends (unless the load keeps them
  /// for a sum: ``keepsRequests``): added one by one as they happen, each would wait for its own cache miss
  /// in arrays of megabytes; added together, the misses overlap.
  mutating func applyPending() {
    phoneHour.add(into: &seconds.phoneHours)
    guard !pending.isEmpty else { return }
    let firstMinuteMicros = Int64(ServerLoad.firstMinute) * 60_000_000
    let minutes = minuteCount
    if var batch = batch.take() {
      batch.sortBySecond(&pending, firstMicros: firstMinuteMicros, secondCount: minutes * 60)
      self.batch = batch
    }
    if openedSlots < minutes {
      var latest = Int64.min
      for request in pending { latest = Swift.max(latest, request.utcMicros) }
      let shifted = latest - firstMinuteMicros
      if shifted >= 0 { openSlots(through: Int(Swift.min(shifted / 60_000_000, Int64(minutes - 1)))) }
    }
    pending.withUnsafeBufferPointer { add($0) }
    pending.removeAll(keepingCapacity: true)
  }

  /// Adds `requests` to the minutes they fall in (opened already) and to the per-second load.
  private mutating func add(_ requests: UnsafeBufferPointer<PendingRequest>) {
    let firstMinuteMicros = Int64(ServerLoad.firstMinute) * 60_000_000
    let minutes = minuteCount
    busySlots.withWords { busy in
      bytes.withUnsafeMutableBufferPointer { bytes in
        pushesDelivered.withUnsafeMutableBufferPointer { delivered in
          for request in requests {
            let shifted = request.utcMicros - firstMinuteMicros
            guard shifted >= 0 else { continue }
            let slot = Int(shifted / 60_000_000)
            guard slot < minutes else { continue }
            SlotSet.mark(slot, in: busy)
            if request.delivered {
              delivered[slot] += 1
            } else if ServerLoad.fetchSources.contains(Int(request.source)) {
              bytes[slot] += Int128(request.bytes)
            }
          }
        }
      }
    }
    bySource.addEach(requests.count) { position in
      let request = requests[position]
      let shifted = request.utcMicros - firstMinuteMicros
      guard shifted >= 0, !request.delivered else { return nil }
      let slot = Int(shifted / 60_000_000)
      guard slot < minutes else { return nil }
      return (ServerSource.bySlot.index(slot, Int(request.source)), 1)
    }
    if !seconds.isEmpty { seconds.record(requests) }
  }

  /// Adds the requests `other` kept (``keepsRequests``) to these minutes, which must be open.
  mutating func addKept(of other: ServerLoad) {
    guard !other.pending.isEmpty else { return }
    precondition(openedSlots == minuteCount && other.keepsRequests, "kept requests added to minutes not open")
    other.pending.withUnsafeBufferPointer { add($0) }
  }

  /// Requests from `source` in the minute at position `slot`.
  public func requests(slot: Int, source: ServerSource) -> Int64 {
    precondition(!holdsKeptRequests, "the minutes of a load that keeps its requests")
    return Int64(bySource[ServerSource.bySlot.index(slot, source.rawValue)])
  }
}
