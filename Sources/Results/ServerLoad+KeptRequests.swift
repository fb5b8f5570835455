/// The server requests a replication keeps for a run's sum (``ServerLoad/keepsRequests``): when they go to
/// the minutes, and the summary's minute totals read from them.
extension ServerLoad {
  /// Whether the load holds requests kept for a sum (``keepsRequests``), which its minutes will never hold:
  /// then only ``minuteTotals()`` and a sum's ``absorb(_:)`` or ``merge(_:)`` read it whole.
  public var holdsKeptRequests: Bool { keepsRequests && !pending.isEmpty }

  /// Adds the requests kept so far to the minutes, and keeps none from now on: a replication that became a
  /// run's sum (a sum is read and written whole), or one that reached ``pendingLimit`` requests (its minutes
  /// hold some of them from then on; the rest are added when the device ends).
  @usableFromInline mutating func applyKept() {
    keepsRequests = false
    applyPending()
  }

  /// A device's day or the device ended: its requests are added now, unless they wait for a batch or the
  /// load keeps them (``keepsRequests``).
  package mutating func applyPendingUnlessKept() {
    if batch == nil && !keepsRequests { applyPending() }
  }

  /// Bits of a kept request's position in ``keptMinuteTotals()``'s sort keys (below them: its minute).
  private static let positionBits = 20

  /// The kept requests that fall in the minutes, each as its minute and its position in ``pending`` in one
  /// integer, in order: the requests of each minute follow each other.
  private func keptRequestKeys() -> [Int] {
    precondition(pending.count < 1 << ServerLoad.positionBits, "more kept requests than a sort key holds")
    let firstMinuteMicros = Int64(ServerLoad.firstMinute) * 60_000_000
    let (minutes, positionBits) = (minuteCount, ServerLoad.positionBits)
    var keys: [Int] = []
    keys.reserveCapacity(pending.count)
    for position in pending.indices {
      let shifted = pending[position].utcMicros - firstMinuteMicros
      guard shifted >= 0 else { continue }
      let slot = Int(shifted / 60_000_000)
      guard slot < minutes else { continue }
      keys.append(slot << positionBits | position)
    }
    // Nearly always in order already (one device's requests, as they happened).
    if keys.indices.dropFirst().contains(where: { keys[$0 - 1] > keys[$0] }) { keys.sort() }
    return keys
  }

  /// ``minuteTotals()`` of a load whose requests are all kept and whose minutes hold nothing: the requests
  /// sorted by minute (a replication records them nearly in order), then added up a minute at a time, each
  /// as ``applyPending()`` would have added it.
  func keptMinuteTotals() -> ServerMinuteTotals {
    precondition(ServerLoad.sourcesInOrder, "server sources out of the order minuteTotals adds them in")
    let (fetchSources, pushSources) = (ServerLoad.fetchSources, ServerLoad.devicePushSources)
    let (broadcast, positionBits) = (ServerSource.broadcast.rawValue, ServerLoad.positionBits)
    let keys = keptRequestKeys()
    // At most a minute per request; cut to the busy minutes at the end.
    var slots = [Int](repeating: 0, count: keys.count)
    let zeros = [Int64](repeating: 0, count: keys.count)
    var (fetches, pushes, broadcasts) = (zeros, zeros, zeros)
    var sourceTotals = [Int64](repeating: 0, count: ServerSource.count)
    var (bytesTotal, deliveredTotal, busy): (Int128, Int64, Int) = (0, 0, 0)
    // Through buffers: an array written in this loop would be checked for sharing at every write.
    pending.withUnsafeBufferPointer { requests in
      slots.withUnsafeMutableBufferPointer { slots in
        fetches.withUnsafeMutableBufferPointer { fetches in
          pushes.withUnsafeMutableBufferPointer { pushes in
            broadcasts.withUnsafeMutableBufferPointer { broadcasts in
              sourceTotals.withUnsafeMutableBufferPointer { totals in
                var index = 0
                while index < keys.count {
                  let slot = keys[index] >> positionBits
                  var (fetch, push, fleetWide): (Int64, Int64, Int64) = (0, 0, 0)
                  while index < keys.count, keys[index] >> positionBits == slot {
                    let request = requests[keys[index] & (1 << positionBits - 1)]
                    index += 1
                    guard !request.delivered else {
                      deliveredTotal += 1
                      continue
                    }
                    let source = Int(request.source)
                    totals[source] += 1
                    if fetchSources.contains(source) {
                      fetch += 1
                      bytesTotal += Int128(request.bytes)
                    } else if pushSources.contains(source) {
                      push += 1
                    } else if source == broadcast {
                      fleetWide += 1
                    }
                  }
                  (slots[busy], fetches[busy], pushes[busy], broadcasts[busy]) = (slot, fetch, push, fleetWide)
                  busy += 1
                }
              }
            }
          }
        }
      }
    }
    slots.removeLast(keys.count - busy)
    fetches.removeLast(keys.count - busy)
    pushes.removeLast(keys.count - busy)
    broadcasts.removeLast(keys.count - busy)
    return ServerMinuteTotals(
      minuteCount: minuteCount, busySlots: slots, busyFetches: fetches, busyDevicePushes: pushes,
      busyBroadcasts: broadcasts, sourceTotals: sourceTotals, bytes: bytesTotal, pushesDelivered: deliveredTotal)
  }
}
