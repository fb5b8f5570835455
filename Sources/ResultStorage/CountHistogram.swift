/// How many seconds had each count (small counts in an array, large ones in a table), the sum and the
/// busiest second: the mean, p99 and peak of a count series without keeping it.
public struct CountHistogram {
  @usableFromInline var small = Array(repeating: 0, count: 4_096)
  @usableFromInline var large: [UInt64: Int] = [:]
  /// The counts added up.
  @usableFromInline var total: UInt64 = 0
  /// Seconds counted so far.
  @usableFromInline var secondsCounted = 0
  /// The largest count and its second (the first second with it).
  @usableFromInline var busiest: (count: UInt64, second: Int) = (0, 0)

  @inlinable public init() {}

  /// The counts added up.
  @inlinable public var sum: UInt64 { total }
  /// Seconds counted so far.
  @inlinable public var seconds: Int { secondsCounted }
  /// The largest count and its second (the first second with it).
  @inlinable public var peak: (count: UInt64, second: Int) { busiest }

  @inlinable
  public mutating func add(_ count: UInt64, second: Int) {
    if count < UInt64(small.count) { small[Int(count)] += 1 } else { large[count, default: 0] += 1 }
    total &+= count
    secondsCounted += 1
    if count > busiest.count { busiest = (count, second) }
  }

  /// `seconds` seconds of no request (in any order with the others: a zero is never the peak).
  @inlinable
  public mutating func addZeros(_ seconds: Int) {
    small[0] += seconds
    secondsCounted += seconds
  }

  /// Every count that some second had, times `factor`, with how many seconds had it, in ascending order.
  public func scaledCounts(_ factor: Double) -> [(Double, Int)] {
    var values: [(Double, Int)] = []
    for (count, seconds) in small.enumerated() where seconds > 0 { values.append((Double(count) * factor, seconds)) }
    for (count, seconds) in large.sorted(by: { $0.key < $1.key }) { values.append((Double(count) * factor, seconds)) }
    return values
  }

  /// The p99 (Hyndman-Fan 7) of `total` values given as (value, how many) in ascending order.
  public static func p99(_ values: [(Double, Int)], total: Int) -> Double {
    guard total > 0 else { return .nan }
    let rank = 0.99 * Double(total - 1)
    let lower = Int(rank.rounded(.down))
    let upper = Swift.min(lower + 1, total - 1)
    func value(_ index: Int) -> Double {
      var seen = 0
      for (value, count) in values {
        seen += count
        if index < seen { return value }
      }
      return values.last?.0 ?? .nan
    }
    let low = value(lower)
    return low + (rank - Double(lower)) * (value(upper) - low)
  }
}
