/// The pending events of one simulation, in the order they will run: `(time, sequence)`.
///
/// A 4-ary min-heap of 16-byte keys: each key is one `UInt128` holding the time (sign-flipped so
/// unsigned order is time order) above the scheduling sequence and a slot number, so one integer compare
/// orders two events and four siblings share a cache line. The event's kind and target live in a slot
/// table beside the heap. A 4-ary heap is half as deep as a binary one, which pays for the hold pattern
/// (pop the earliest, push one later) that dominates a simulation; `widgetsim bench` measures it.
///
/// Cancellation marks the slot; the stale key is dropped when it reaches the top, or by a rebuild when
/// cancelled keys outnumber live ones. Storage is raw memory grown by doubling: once it has grown to a
/// simulation's working size, neither scheduling nor popping allocates, and no access is bounds- or
/// uniqueness-checked. The type is non-copyable: it owns that memory alone.
public struct EventSet: ~Copyable {
  @usableFromInline var keys: UnsafeMutablePointer<UInt128>
  @usableFromInline var slots: UnsafeMutablePointer<EventSlot>
  /// Pending keys in `keys`, live and cancelled.
  @usableFromInline var heapCount = 0
  @usableFromInline var keyCapacity: Int
  /// Slots ever handed out (`slots[0..<slotCount]` are initialised).
  @usableFromInline var slotCount = 0
  @usableFromInline var slotCapacity: Int
  /// Head of the free-slot list threaded through ``EventSlot/link``, or `EventSlot.none`.
  @usableFromInline var firstFreeSlot = EventSlot.none
  @usableFromInline var nextSequence: UInt64 = 0
  /// Keys in the heap whose event was cancelled but not yet dropped.
  @usableFromInline var cancelledEntries = 0

  /// Bits of a key below the time: the sequence (upper 40) and the slot (lower 24).
  @usableFromInline static let slotBits: UInt64 = 24
  @usableFromInline static let slotMask: UInt64 = (1 << 24) - 1
  /// Most events pending at once in one event set: 2^24 - 1 (the slot field's range).
  public static let maximumPending = Int(slotMask)
  @usableFromInline static let sequenceLimit: UInt64 = 1 << 40

  /// An empty event set with room for `capacity` pending events before its storage grows.
  public init(capacity: Int = 64) {
    let capacity = Swift.max(capacity, 4)
    keys = .allocate(capacity: capacity)
    slots = .allocate(capacity: capacity)
    keyCapacity = capacity
    slotCapacity = capacity
  }

  deinit {
    keys.deallocate()
    slots.deinitialize(count: slotCount)
    slots.deallocate()
  }

  /// Number of pending (not cancelled) events.
  @inlinable
  public var count: Int { heapCount - cancelledEntries }

  @inlinable
  public var isEmpty: Bool { count == 0 }

  /// Schedules an event and returns the handle that cancels it.
  @inlinable
  @discardableResult
  public mutating func insert(at time: SimTime, kind: EventKind, target: UInt32) -> EventHandle {
    let slot = takeSlot()
    let generation = slots[slot].generation
    slots[slot].kind = kind.rawValue
    slots[slot].target = target
    if nextSequence == EventSet.sequenceLimit { renumberSequences() }
    let order = nextSequence << EventSet.slotBits | UInt64(slot)
    nextSequence &+= 1
    if heapCount == keyCapacity { growKeys() }
    let key = UInt128(UInt64(bitPattern: time.microseconds) ^ (1 << 63)) << 64 | UInt128(order)
    heapCount += 1
    siftUp(key, from: heapCount - 1)
    return EventHandle(slot: UInt32(slot), generation: generation)
  }

  /// Removes and returns the earliest pending event, or `nil` when none is pending.
  @inlinable
  public mutating func popNext() -> Event? {
    while heapCount > 0 {
      let key = popRoot()
      let order = UInt64(truncatingIfNeeded: key)
      let slot = Int(order & EventSet.slotMask)
      let live = slots[slot].link == EventSlot.live
      let kind = slots[slot].kind
      let target = slots[slot].target
      releaseSlot(slot)
      if live {
        let time = Int64(bitPattern: UInt64(truncatingIfNeeded: key >> 64) ^ (1 << 63))
        return Event(
          time: SimTime(microseconds: time), sequence: order >> EventSet.slotBits, kind: EventKind(rawValue: kind),
          target: target)
      }
      cancelledEntries -= 1
    }
    return nil
  }

  /// The time of the earliest pending event, dropping cancelled keys on the way.
  @inlinable
  public mutating func nextTime() -> SimTime? {
    while heapCount > 0 {
      let key = keys[0]
      let slot = Int(UInt64(truncatingIfNeeded: key) & EventSet.slotMask)
      if slots[slot].link == EventSlot.live {
        return SimTime(microseconds: Int64(bitPattern: UInt64(truncatingIfNeeded: key >> 64) ^ (1 << 63)))
      }
      _ = popRoot()
      releaseSlot(slot)
      cancelledEntries -= 1
    }
    return nil
  }

  /// Whether the event `handle` names is still pending.
  public func isPending(_ handle: EventHandle) -> Bool {
    let slot = Int(handle.slot)
    return slot < slotCount && slots[slot].generation == handle.generation && slots[slot].link == EventSlot.live
  }

  /// Cancels a pending event. Returns `false` (and changes nothing) if it already ran or was cancelled.
  @discardableResult
  public mutating func cancel(_ handle: EventHandle) -> Bool {
    guard isPending(handle) else { return false }
    slots[Int(handle.slot)].link = EventSlot.cancelled
    cancelledEntries += 1
    if cancelledEntries > 64 && cancelledEntries * 2 > heapCount {
      dropCancelledEntries()
    }
    return true
  }

  /// Replaces a pending event with a new one (a widget's pending `.after` reload replaced by the app's
  /// reload, say). The old event is cancelled if still pending; the new one is scheduled either way and
  /// takes its place in the scheduling order as of now.
  @discardableResult
  public mutating func supersede(
    _ handle: EventHandle, at time: SimTime, kind: EventKind, target: UInt32
  ) -> EventHandle {
    cancel(handle)
    return insert(at: time, kind: kind, target: target)
  }

  /// Removes every pending event; outstanding handles become stale.
  public mutating func removeAll() {
    for index in 0..<heapCount {
      releaseSlot(Int(UInt64(truncatingIfNeeded: keys[index]) & EventSet.slotMask))
    }
    heapCount = 0
    cancelledEntries = 0
  }
}

// MARK: - Storage

extension EventSet {
  /// Takes a free slot, or a new one.
  @inlinable
  mutating func takeSlot() -> Int {
    if firstFreeSlot != EventSlot.none {
      let slot = Int(firstFreeSlot)
      firstFreeSlot = slots[slot].link
      slots[slot].link = EventSlot.live
      return slot
    }
    precondition(slotCount < EventSet.maximumPending, "more than \(EventSet.maximumPending) events pending at once")
    if slotCount == slotCapacity { growSlots() }
    (slots + slotCount).initialize(to: EventSlot(kind: 0, target: 0, generation: 0, link: EventSlot.live))
    slotCount += 1
    return slotCount - 1
  }

  /// Returns a slot to the free list; its generation moves on so old handles go stale.
  @inlinable
  mutating func releaseSlot(_ slot: Int) {
    slots[slot].generation &+= 1
    slots[slot].link = firstFreeSlot
    firstFreeSlot = UInt32(slot)
  }

  @usableFromInline
  mutating func growKeys() {
    let capacity = keyCapacity * 2
    let grown = UnsafeMutablePointer<UInt128>.allocate(capacity: capacity)
    grown.moveInitialize(from: keys, count: heapCount)
    keys.deallocate()
    keys = grown
    keyCapacity = capacity
  }

  @usableFromInline
  mutating func growSlots() {
    let capacity = slotCapacity * 2
    let grown = UnsafeMutablePointer<EventSlot>.allocate(capacity: capacity)
    grown.moveInitialize(from: slots, count: slotCount)
    slots.deallocate()
    slots = grown
    slotCapacity = capacity
  }

  /// Gives pending keys the sequences 0, 1, 2... in their current order, once every 2^40 insertions, so
  /// the 40-bit sequence field never wraps; relative order is unchanged.
  @usableFromInline
  mutating func renumberSequences() {
    var pending = UnsafeMutableBufferPointer(start: keys, count: heapCount)
    pending.sort()
    for index in 0..<heapCount {
      let key = pending[index]
      let slot = UInt64(truncatingIfNeeded: key) & EventSet.slotMask
      pending[index] = (key >> 64) << 64 | UInt128(UInt64(index) << EventSet.slotBits | slot)
    }
    // A sorted array is a valid heap.
    nextSequence = UInt64(heapCount)
  }

  /// Rebuilds the heap from its live keys (Floyd's bottom-up construction, O(n)).
  mutating func dropCancelledEntries() {
    var live = 0
    for index in 0..<heapCount {
      let key = keys[index]
      let slot = Int(UInt64(truncatingIfNeeded: key) & EventSet.slotMask)
      if slots[slot].link == EventSlot.live {
        keys[live] = key
        live += 1
      } else {
        releaseSlot(slot)
      }
    }
    heapCount = live
    cancelledEntries = 0
    guard live > 1 else { return }
    var parent = (live - 2) / 4
    while parent >= 0 {
      siftDown(keys[parent], from: parent)
      parent -= 1
    }
  }
}

// MARK: - 4-ary heap

extension EventSet {
  /// Removes and returns the smallest key (live or cancelled).
  @inlinable
  mutating func popRoot() -> UInt128 {
    let root = keys[0]
    heapCount -= 1
    if heapCount > 0 {
      siftDown(keys[heapCount], from: 0)
    }
    return root
  }

  /// Places `key` at `index` or above, moving larger parents down.
  @inlinable
  mutating func siftUp(_ key: UInt128, from index: Int) {
    var hole = index
    while hole > 0 {
      let parent = (hole - 1) >> 2
      let parentKey = keys[parent]
      if parentKey <= key { break }
      keys[hole] = parentKey
      hole = parent
    }
    keys[hole] = key
  }

  /// Places `key` at `index` or below, moving smaller children up.
  @inlinable
  mutating func siftDown(_ key: UInt128, from index: Int) {
    let count = heapCount
    var hole = index
    while true {
      let first = 4 &* hole &+ 1
      var best = first
      var bestKey: UInt128
      if first &+ 3 < count {
        // All four children present (the common case): a tournament of two pairs.
        let a = keys[first]
        let b = keys[first &+ 1]
        let c = keys[first &+ 2]
        let d = keys[first &+ 3]
        let left = a <= b ? (first, a) : (first &+ 1, b)
        let right = c <= d ? (first &+ 2, c) : (first &+ 3, d)
        (best, bestKey) = left.1 <= right.1 ? left : right
      } else {
        if first >= count { break }
        bestKey = keys[first]
        var child = first &+ 1
        while child < count {
          let candidate = keys[child]
          if candidate < bestKey {
            best = child
            bestKey = candidate
          }
          child &+= 1
        }
      }
      if key <= bestKey { break }
      keys[hole] = bestKey
      hole = best
    }
    keys[hole] = key
  }
}

/// What the event set keeps per slot: the event's payload, and the slot's state.
@usableFromInline
struct EventSlot {
  @usableFromInline var kind: UInt32
  @usableFromInline var target: UInt32
  /// Bumped each time the slot is freed, so handles to earlier occupants go stale.
  @usableFromInline var generation: UInt32
  /// ``live``, ``cancelled``, or (when free) the next free slot, ``none`` ending the list.
  @usableFromInline var link: UInt32

  @inlinable
  init(kind: UInt32, target: UInt32, generation: UInt32, link: UInt32) {
    self.kind = kind
    self.target = target
    self.generation = generation
    self.link = link
  }

  @usableFromInline static let live: UInt32 = .max
  @usableFromInline static let cancelled: UInt32 = .max - 1
  @usableFromInline static let none: UInt32 = .max - 2
}

/// Safe to send: an `EventSet` is non-copyable, so exactly one owner can reach its memory at a time.
extension EventSet: @unchecked Sendable {}
