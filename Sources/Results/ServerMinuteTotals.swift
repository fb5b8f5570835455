import ResultStorage
import SimulationEngine

/// A replication's per-minute server load added up the ways its metrics read it, in one pass over the busy
/// minutes (``ServerLoad/busySlots``; every other minute is all zero), or over its requests when it keeps
/// them (``ServerLoad/keepsRequests``): fetches, single-device pushes and
/// broadcast requests at each busy minute, each source's total, bytes and delivered pushes. The summary
/// derives these once per replication instead of once per metric, and one phone's replication (requests in a
/// few minutes of each day) costs what its busy minutes cost, not what the run's minutes do.
/// ``ServerLoad/fetches`` and ``ServerLoad/pushesSent(scale:)`` are read from them.
public struct ServerMinuteTotals: Sendable, Equatable {
  /// Minutes covered (``ServerLoad/minuteCount``).
  public let minuteCount: Int
  /// The busy minutes' slots, ascending.
  public let busySlots: [Int]
  /// At each busy slot: fetch requests, every source.
  public let busyFetches: [Int64]
  /// At each busy slot: pushes sent to single devices, every type, broadcasts apart.
  public let busyDevicePushes: [Int64]
  /// At each busy slot: broadcast channel requests (already the fleet's).
  public let busyBroadcasts: [Int64]
  /// Each ``ServerSource``'s requests over every minute, by raw value.
  public let sourceTotals: [Int64]
  /// Bytes fetched and pushes delivered over every minute.
  public let bytes: Int128
  public let pushesDelivered: Int64

  /// Fetch requests per minute, every source (``ServerLoad/fetches``).
  public var fetches: [Int64] { dense(busyFetches) }
  /// Pushes sent per minute to single devices, every type, broadcasts apart.
  public var devicePushes: [Int64] { dense(busyDevicePushes) }
  /// Broadcast channel requests per minute.
  public var broadcasts: [Int64] { dense(busyBroadcasts) }

  /// Pushes sent per minute by the real fleet (``ServerLoad/pushesSent(scale:)``).
  public func pushesSent(scale: Double) -> [Double] {
    var sent = [Double](repeating: 0, count: minuteCount)
    for (position, slot) in busySlots.enumerated() { sent[slot] = busyPushesSent(position, scale: scale) }
    return sent
  }

  /// The most fetches in any minute (0 when there are none).
  public var peakFetches: Int64 { busyFetches.max() ?? 0 }

  /// The most pushes the real fleet sent in any minute (0 when there are none).
  public func peakPushesSent(scale: Double) -> Double {
    var peak = busySlots.count < minuteCount || busySlots.isEmpty ? 0.0 : -Double.infinity
    for position in busySlots.indices { peak = Swift.max(peak, busyPushesSent(position, scale: scale)) }
    return peak
  }

  /// Pushes the real fleet sent over every minute, added minute by minute in order (the sum of
  /// ``pushesSent(scale:)`` to the bit: the idle minutes add zeros).
  public func totalPushesSent(scale: Double) -> Double {
    var total = 0.0
    for position in busySlots.indices { total += busyPushesSent(position, scale: scale) }
    return total
  }

  /// Broadcast requests over the slots `range`.
  public func broadcasts(slots range: Range<Int>) -> Int64 {
    var total: Int64 = 0
    for (position, slot) in busySlots.enumerated() where range.contains(slot) { total += busyBroadcasts[position] }
    return total
  }

  private func busyPushesSent(_ position: Int, scale: Double) -> Double {
    Double(busyBroadcasts[position]) + Double(busyDevicePushes[position]) * scale
  }

  private func dense(_ busy: [Int64]) -> [Int64] {
    var series = [Int64](repeating: 0, count: minuteCount)
    for (position, slot) in busySlots.enumerated() { series[slot] = busy[position] }
    return series
  }
}

extension ServerLoad {
  /// The fetch sources' raw values (the first ones: ``sourcesInOrder``), then the per-device pushes'.
  static let fetchSources = 0..<ServerSource.allCases.count(where: \.isFetch)
  static let devicePushSources = fetchSources.upperBound..<ServerSource.broadcast.rawValue

  /// Whether the sources come in the order ``minuteTotals()`` adds them: fetches, per-device pushes, the
  /// fleet-wide broadcast, token registrations.
  static let sourcesInOrder =
    ServerSource.allCases.allSatisfy {
      $0.isFetch == fetchSources.contains($0.rawValue)
        && ($0.isPush && !$0.isFleetWide) == devicePushSources.contains($0.rawValue)
    } && ServerSource.broadcast.isFleetWide
    && ServerSource.tokenRegistration.rawValue == ServerSource.broadcast.rawValue + 1
    && ServerSource.count == ServerSource.broadcast.rawValue + 2

  /// Every per-minute total the summary reads, in one pass over the busy minutes (or over the requests a
  /// replication kept: ``keepsRequests``).
  public func minuteTotals() -> ServerMinuteTotals {
    guard !pending.isEmpty else { return appliedMinuteTotals() }
    guard busySlots.isEmpty else {
      // Requests both in the minutes and not yet added (a load read part way): added together, on a copy.
      var applied = self
      applied.applyPending()
      return applied.appliedMinuteTotals()
    }
    return keptMinuteTotals()
  }

  /// ``minuteTotals()`` from the minutes (no request kept).
  private func appliedMinuteTotals() -> ServerMinuteTotals {
    // A minute's sources in their order: fetches, then pushes sent per device, then the fleet-wide
    // broadcasts, then token registrations (checked once: a source's kind is its place in that order).
    precondition(ServerLoad.sourcesInOrder, "server sources out of the order minuteTotals adds them in")
    let (fetchSources, pushSources) = (ServerLoad.fetchSources, ServerLoad.devicePushSources)
    let broadcast = ServerSource.broadcast.rawValue
    let sourceCount = ServerSource.count
    let slots = Array(busySlots)
    var fetches = [Int64](repeating: 0, count: slots.count)
    var pushes = [Int64](repeating: 0, count: slots.count)
    var broadcasts = [Int64](repeating: 0, count: slots.count)
    var sourceTotals = [Int64](repeating: 0, count: sourceCount)
    var bytesTotal: Int128 = 0
    var deliveredTotal: Int64 = 0
    // Through buffers: an array written in this loop would be checked for sharing at every cell.
    bySource.cells.withUnsafeBufferPointer { cells in
      fetches.withUnsafeMutableBufferPointer { fetches in
        pushes.withUnsafeMutableBufferPointer { pushes in
          broadcasts.withUnsafeMutableBufferPointer { broadcasts in
            sourceTotals.withUnsafeMutableBufferPointer { totals in
              for (position, slot) in slots.enumerated() {
                let base = ServerSource.bySlot.start(ofRow: slot)
                // The sources with a request this minute (a phone's: one or two of the eleven), by bit.
                let asked = CompactCounts.nonzeroCells(cells, from: base, count: sourceCount)
                var (fetch, push, fleetWide): (Int64, Int64, Int64) = (0, 0, 0)
                asked.forEachSetBit { source in
                  // A marked cell's count is in the side table (rare: only past 4 billion requests a minute).
                  let cell = cells[base + source]
                  let count = cell == UInt32.max ? Int64(bySource[base + source]) : Int64(cell)
                  totals[source] += count
                  if fetchSources.contains(source) {
                    fetch += count
                  } else if pushSources.contains(source) {
                    push += count
                  } else if source == broadcast {
                    fleetWide = count
                  }
                }
                broadcasts[position] = fleetWide
                fetches[position] = fetch
                pushes[position] = push
                bytesTotal += bytes[slot]
                deliveredTotal += pushesDelivered[slot]
              }
            }
          }
        }
      }
    }
    return ServerMinuteTotals(
      minuteCount: minuteCount, busySlots: slots, busyFetches: fetches, busyDevicePushes: pushes,
      busyBroadcasts: broadcasts, sourceTotals: sourceTotals, bytes: bytesTotal, pushesDelivered: deliveredTotal)
  }
}
