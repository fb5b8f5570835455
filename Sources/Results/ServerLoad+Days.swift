import ResultStorage
import SimulationEngine

/// Emptying a load for another run, day by day as the run reaches them, and cutting off a warm-up.
extension ServerLoad {
  /// The minutes from the first day after the warm-up on (the 14 h before it stay, as for day 0).
  public mutating func dropFirst(days: Int, of total: Int) {
    guard days > 0 else { return }
    precondition(pending.isEmpty && openedSlots == minuteCount, "requests not yet applied")
    let minutes = days * 1_440
    bytes.removeFirst(minutes)
    pushesDelivered.removeFirst(minutes)
    bySource.dropFirst(ServerSource.bySlot.start(ofRow: minutes))
    minuteCount -= minutes
    openedSlots = minuteCount
    findBusySlots()
    seconds.dropFirst(days: days, of: total)
  }

  public mutating func reset() {
    pending.removeAll(keepingCapacity: true)
    keepsRequests = false
    bytes.reset()
    pushesDelivered.reset()
    bySource.reset()
    seconds.reset()
    openedSlots = minuteCount
    busySlots = SlotSet(capacity: minuteCount)
  }

  /// Empties the minutes a device can write while days `days` of `total` run, whatever its time zone: up to
  /// the end of the last of them plus the largest offset either way (two of them, as the minutes start one
  /// offset before day 0).
  public mutating func clear(days: Range<Int>, of total: Int) {
    guard !days.isEmpty else { return }
    openSlots(through: Swift.min(minuteCount, days.upperBound * 1_440 + 2 * 14 * 60) - 1)
  }

  /// The per-second load (fleets, reset once per run) is emptied at once; the minutes as the run reaches them.
  public mutating func resetAllButDays() {
    pending.removeAll(keepingCapacity: true)
    keepsRequests = false
    bySource.resetAllButDays()
    seconds.reset()
    openedSlots = 0
  }

  /// Empties the minutes not yet emptied up to `last`.
  mutating func openSlots(through last: Int) {
    guard last >= openedSlots else { return }
    let range = openedSlots..<(last + 1)
    if busySlots.count(in: range) * 8 > range.count {
      // Mostly busy: emptied whole, as spans of minutes (a "day" of one minute each).
      bytes.clear(days: range, of: minuteCount)
      pushesDelivered.clear(days: range, of: minuteCount)
      bySource.clear(days: range, of: minuteCount)
    } else {
      // Only the busy minutes hold anything to empty.
      let busy = busySlots.members(in: range)
      bytes.withUnsafeMutableBufferPointer { bytes in
        pushesDelivered.withUnsafeMutableBufferPointer { delivered in
          for slot in busy {
            bytes[slot] = 0
            delivered[slot] = 0
          }
        }
      }
      bySource.zero(each: busy, width: ServerSource.count)
    }
    busySlots.subtract(range)
    openedSlots = last + 1
  }

  /// Marks every slot that holds something (for counts read from a file or moved by ``dropFirst(days:of:)``).
  mutating func findBusySlots() {
    var busy = SlotSet(capacity: minuteCount)
    for slot in 0..<minuteCount where holdsSomething(slot) { busy.insert(slot) }
    busySlots = busy
  }
}
