import SimulationEngine

/// A replication's per-minute server load added up the ways its metrics read it, in one pass over the
/// counts: fetches and single-device pushes per minute, broadcast requests per minute, and each source's
/// total. The summary derives these once per replication instead of once per metric; ``ServerLoad/fetches``
/// and ``ServerLoad/pushesSent(scale:)`` are read from them.
public struct ServerMinuteTotals: Sendable, Equatable {
  /// Fetch requests per minute, every source (``ServerLoad/fetches``).
  public let fetches: [Int64]
  /// Pushes sent per minute to single devices, every type, broadcasts apart.
  public let devicePushes: [Int64]
  /// Broadcast channel requests per minute (already the fleet's).
  public let broadcasts: [Int64]
  /// Each ``ServerSource``'s requests over every minute, by raw value.
  public let sourceTotals: [Int64]

  /// Pushes sent per minute by the real fleet (``ServerLoad/pushesSent(scale:)``).
  public func pushesSent(scale: Double) -> [Double] {
    var sent = [Double](repeating: 0, count: fetches.count)
    for slot in sent.indices { sent[slot] = Double(broadcasts[slot]) + Double(devicePushes[slot]) * scale }
    return sent
  }
}

extension ServerLoad {
  /// Every per-minute total the summary reads, in one pass.
  public func minuteTotals() -> ServerMinuteTotals {
    // Masks (all ones or zero) rather than branches: the inner loop is the same for every minute.
    let fetchMask = ServerSource.allCases.map { $0.isFetch ? Int64(-1) : 0 }
    let pushMask = ServerSource.allCases.map { $0.isPush && !$0.isFleetWide ? Int64(-1) : 0 }
    let broadcast = ServerSource.broadcast.rawValue
    let sourceCount = ServerSource.count
    var fetches = [Int64](repeating: 0, count: minuteCount)
    var pushes = [Int64](repeating: 0, count: minuteCount)
    var broadcasts = [Int64](repeating: 0, count: minuteCount)
    var sourceTotals = [Int64](repeating: 0, count: sourceCount)
    // Through buffers: an array written in this loop would be checked for sharing at every cell.
    bySource.cells.withUnsafeBufferPointer { cells in
      fetches.withUnsafeMutableBufferPointer { fetches in
        pushes.withUnsafeMutableBufferPointer { pushes in
          broadcasts.withUnsafeMutableBufferPointer { broadcasts in
            sourceTotals.withUnsafeMutableBufferPointer { totals in
              for slot in 0..<minuteCount {
                let base = slot * sourceCount
                var fetch: Int64 = 0
                var push: Int64 = 0
                for source in 0..<sourceCount {
                  // A marked cell's count is in the side table (rare: only past 4 billion requests a minute).
                  let cell = cells[base + source]
                  let requests = cell == UInt32.max ? Int64(bySource[base + source]) : Int64(cell)
                  fetch += requests & fetchMask[source]
                  push += requests & pushMask[source]
                  totals[source] += requests
                  if source == broadcast { broadcasts[slot] = requests }
                }
                fetches[slot] = fetch
                pushes[slot] = push
              }
            }
          }
        }
      }
    }
    return ServerMinuteTotals(
      fetches: fetches, devicePushes: pushes, broadcasts: broadcasts, sourceTotals: sourceTotals)
  }
}
