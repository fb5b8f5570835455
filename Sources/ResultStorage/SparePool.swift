import Synchronization

/// Finished values kept for reuse, shared by threads: a large result is cheaper to empty than to make anew
/// (emptying costs a fraction of what the kernel charges to map and zero fresh pages). Holds at most
/// ``capacity`` values; one handed back past that is dropped.
public final class SparePool<Element: Sendable>: Sendable {
  private let spares = Mutex<[Element]>([])
  /// At most this many values are kept.
  public let capacity: Int

  public init(capacity: Int) {
    self.capacity = capacity
  }

  /// The last spare handed back for which `fits` holds, taken out of the pool (not copied: its storage is
  /// not shared with the pool). Every spare for which `fits` does not hold is dropped first, so the pool
  /// never pins values its users can no longer use.
  public func take(fitting fits: (Element) -> Bool) -> Element? {
    spares.withLock { spares in
      spares.removeAll { !fits($0) }
      return spares.popLast()
    }
  }

  /// The last spare handed back, whatever it is.
  public func take() -> Element? {
    spares.withLock { $0.popLast() }
  }

  /// Hands back a value its user has finished with (moved in, not copied).
  public func give(_ element: consuming Element) {
    var handed: Element? = consume element
    spares.withLock { spares in
      if spares.count < capacity, let element = handed.take() { spares.append(element) }
    }
  }

  /// Spares held now.
  public var count: Int { spares.withLock { $0.count } }
}
