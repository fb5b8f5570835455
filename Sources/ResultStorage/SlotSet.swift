/// A set of slots (minutes of ``ServerLoad``) as one bit each, in ascending order. Plain words rather than
/// swift-collections' `BitSet`: a load marks a slot for every request it adds, inside the loop that adds
/// them through pointers, where a `BitSet` insert (its checks and bookkeeping) cost 3% of the model's time.
public struct SlotSet: Sequence, Sendable, Equatable {
  /// Bit `slot % 64` of word `slot / 64`.
  @usableFromInline var storage: [UInt64]

  @inlinable public var words: [UInt64] { storage }

  /// An empty set of slots `0..<capacity`.
  @inlinable
  public init(capacity: Int) {
    storage = Array(repeating: 0, count: (capacity + 63) / 64)
  }

  /// Marks slots through the words (for a loop that adds many).
  @inlinable @inline(__always)
  public static func mark(_ slot: Int, in words: UnsafeMutableBufferPointer<UInt64>) {
    words[slot >> 6] |= 1 << UInt64(slot & 63)
  }

  @inlinable
  public mutating func withWords<Result>(_ body: (UnsafeMutableBufferPointer<UInt64>) -> Result) -> Result {
    storage.withUnsafeMutableBufferPointer { body($0) }
  }

  @inlinable
  public mutating func insert(_ slot: Int) {
    withWords { SlotSet.mark(slot, in: $0) }
  }

  /// Zero words skipped: a phone's minutes leave most of them empty, and a word's bit count takes a score of
  /// instructions here (no `popcnt` in the baseline x86-64 this builds for).
  @inlinable
  public var count: Int { words.reduce(0) { $1 == 0 ? $0 : $0 + $1.nonzeroBitCount } }

  /// Whether no slot is marked.
  @inlinable
  public var isEmpty: Bool { words.allSatisfy { $0 == 0 } }

  /// The slots within `range`, in order.
  @inlinable
  public func members(in range: Range<Int>) -> Members {
    Members(words: words, range: range)
  }

  @inlinable
  public func makeIterator() -> Members {
    Members(words: words, range: 0..<(words.count * 64))
  }

  /// Slots within `range`.
  @inlinable
  public func count(in range: Range<Int>) -> Int {
    var total = 0
    words.withUnsafeBufferPointer { words in
      SlotSet.forEachWord(in: range, of: words.count) { total += (words[$0] & $1).nonzeroBitCount }
    }
    return total
  }

  /// Removes the slots within `range`.
  @inlinable
  public mutating func subtract(_ range: Range<Int>) {
    withWords { words in SlotSet.forEachWord(in: range, of: words.count) { words[$0] &= ~$1 } }
  }

  /// Calls `body` with each word that holds slots within `range` (clamped to `wordCount` words) and the mask
  /// of those slots: a whole word's is every bit, so only the two end words work one out.
  @inlinable @inline(__always)
  static func forEachWord(in range: Range<Int>, of wordCount: Int, _ body: (Int, UInt64) -> Void) {
    let range = range.clamped(to: 0..<(wordCount * 64))
    guard !range.isEmpty else { return }
    let (first, last) = (range.lowerBound >> 6, (range.upperBound - 1) >> 6)
    body(first, mask(first, range))
    guard last > first else { return }
    for index in (first + 1)..<last { body(index, ~0) }
    body(last, mask(last, range))
  }

  /// The bits of word `index` that are slots within `range`.
  @inlinable
  public static func mask(_ index: Int, _ range: Range<Int>) -> UInt64 {
    var bits = ~UInt64(0)
    let first = index << 6
    if range.lowerBound > first { bits &= ~0 << UInt64(range.lowerBound - first) }
    if range.upperBound < first + 64 { bits &= (1 << UInt64(range.upperBound - first)) &- 1 }
    return bits
  }

  @inlinable
  public mutating func formUnion(_ other: SlotSet) {
    precondition(words.count == other.words.count, "slot sets of different sizes")
    other.words.withUnsafeBufferPointer { theirs in
      withWords { mine in for index in mine.indices { mine[index] |= theirs[index] } }
    }
  }

  /// The set slots of some words within a range, in order.
  public struct Members: Sequence, IteratorProtocol {
    @usableFromInline let words: [UInt64]
    /// The last word holding slots of the range, and its bits inside it (every other word past the first is
    /// inside whole).
    @usableFromInline let lastWord: Int
    @usableFromInline let lastMask: UInt64
    @usableFromInline var word: Int
    @usableFromInline var rest: UInt64 = 0

    @inlinable
    init(words: [UInt64], range: Range<Int>) {
      self.words = words
      let range = range.clamped(to: 0..<(words.count * 64))
      word = range.lowerBound >> 6
      lastWord = range.isEmpty ? word - 1 : (range.upperBound - 1) >> 6
      lastMask = range.isEmpty ? 0 : SlotSet.mask(lastWord, range)
      if !range.isEmpty { rest = words[word] & SlotSet.mask(word, range) }
    }

    @inlinable
    public mutating func next() -> Int? {
      while rest == 0 {
        word += 1
        guard word <= lastWord else { return nil }
        rest = words[word] & (word == lastWord ? lastMask : ~0)
      }
      let slot = word << 6 + rest.trailingZeroBitCount
      rest &= rest - 1
      return slot
    }
  }
}
