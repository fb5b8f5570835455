import ResultStorage
import SimulationEngine

/// Adding one load into another: minute by minute through the busy minutes of a phone's, whole otherwise.
extension ServerLoad {
  /// Under a quarter of its minutes busy (a phone's load): merged and absorbed minute by minute, not whole.
  private var isMostlyIdle: Bool { busySlots.count * 4 < minuteCount }

  /// Both loads have every minute open, this one applied its requests, `other` applied them or kept them
  /// (``keepsRequests``: they are added after its minutes), and they have the same minutes (the
  /// minute-by-minute paths write by pointer).
  private func checkMergeable(_ other: ServerLoad) {
    precondition(
      pending.isEmpty && (other.pending.isEmpty || other.keepsRequests) && openedSlots == minuteCount
        && other.openedSlots == other.minuteCount,
      "requests not yet applied")
    precondition(minuteCount == other.minuteCount, "merged loads of \(minuteCount) and \(other.minuteCount) minutes")
  }

  /// Adds `other` as ``merge(_:)`` does and empties it in the same pass: a phone's busy minutes are added and
  /// emptied together, and then none is busy (a fleet's load, mostly busy, is emptied whole after a merge).
  public mutating func absorb(_ other: inout ServerLoad) {
    applyKept()  // a sum that was a replication keeping its requests
    guard other.isMostlyIdle else {
      merge(other)
      return other.reset()
    }
    checkMergeable(other)
    do {
      // A copy of the busy minutes to walk, gone before they are emptied below (else that copies them).
      let busy = other.busySlots
      bytes.withUnsafeMutableBufferPointer { bytes in
        pushesDelivered.withUnsafeMutableBufferPointer { delivered in
          other.bytes.withUnsafeMutableBufferPointer { theirBytes in
            other.pushesDelivered.withUnsafeMutableBufferPointer { theirDelivered in
              for slot in busy {
                bytes[slot] += theirBytes[slot]
                delivered[slot] += theirDelivered[slot]
                theirBytes[slot] = 0
                theirDelivered[slot] = 0
              }
            }
          }
        }
      }
      bySource.absorb(&other.bySource, each: busy, width: ServerSource.count)
      busySlots.formUnion(busy)
    }
    other.busySlots.subtract(0..<minuteCount)
    seconds.merge(other.seconds)
    addKept(of: other)
    other.pending.removeAll(keepingCapacity: true)
  }

  public mutating func merge(_ other: ServerLoad) {
    applyKept()  // a sum that was a replication keeping its requests
    checkMergeable(other)
    if other.isMostlyIdle {
      bytes.withUnsafeMutableBufferPointer { bytes in
        pushesDelivered.withUnsafeMutableBufferPointer { delivered in
          for slot in other.busySlots {
            bytes[slot] += other.bytes[slot]
            delivered[slot] += other.pushesDelivered[slot]
          }
        }
      }
      bySource.merge(other.bySource, each: other.busySlots, width: ServerSource.count)
    } else {
      bytes.merge(other.bytes)
      pushesDelivered.merge(other.pushesDelivered)
      bySource.merge(other.bySource)
    }
    busySlots.formUnion(other.busySlots)
    seconds.merge(other.seconds)
    addKept(of: other)
  }
}
