import SimulationEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Quantiles of an unbounded stream of non-negative values, in bounded memory, with a stated error.
///
/// Method: logarithmic buckets as in DDSketch (Masson, Rim & Lee, VLDB 2019). With relative accuracy α,
/// bucket i holds the values in (γ^(i-1), γ^i], γ = (1 + α) / (1 - α), and reports 2γ^i / (γ + 1).
/// Guarantee: ``quantile(_:)`` returns a value within a factor (1 ± α) of the sample's order statistic of
/// rank ⌊p (n - 1)⌋ (0-based). Values at or below 1e-9 count as zero (reported as 0); values above 1e15
/// are counted in the bucket of 1e15. With the default α = 0.5% the whole range needs at most about
/// 4,900 buckets (39 KB), however many values arrive.
///
/// Counts are integers, so merging is exact, commutative and associative: sketches from devices merged in
/// any order give the same quantiles to the bit.
public struct QuantileSketch: Sendable, Equatable {
  public let relativeAccuracy: Double
  let logGamma: Double
  /// Bucket counts for indices offset ..< offset + counts.count.
  var counts: [UInt64] = []
  var offset = 0
  var zeroCount: UInt64 = 0
  public private(set) var count: UInt64 = 0

  static let zeroThreshold = 1e-9
  static let largestTracked = 1e15

  /// An empty sketch; `relativeAccuracy` in (0, 0.5].
  public init(relativeAccuracy: Double = 0.005) {
    precondition(relativeAccuracy > 0 && relativeAccuracy <= 0.5, "relative accuracy must be in (0, 0.5]")
    self.relativeAccuracy = relativeAccuracy
    logGamma = log((1 + relativeAccuracy) / (1 - relativeAccuracy))
  }

  /// Adds a value; it must be finite and >= 0.
  public mutating func add(_ value: Double) {
    add(value, times: 1)
  }

  /// Adds a value `times` times.
  public mutating func add(_ value: Double, times: UInt64) {
    add(bucket(of: value), times: times)
  }

  /// Where a value goes in every sketch of this accuracy: found once, it can be added to several (one
  /// logarithm, not one per sketch).
  public struct Bucket: Sendable, Equatable {
    /// The bucket's index; nil for the zero bucket.
    let index: Int?
    /// The accuracy of the sketch that found it.
    let relativeAccuracy: Double
  }

  /// The bucket of `value`, which must be finite and >= 0.
  public func bucket(of value: Double) -> Bucket {
    precondition(value >= 0 && value.isFinite, "QuantileSketch takes finite values >= 0, got \(value)")
    if value <= QuantileSketch.zeroThreshold { return Bucket(index: nil, relativeAccuracy: relativeAccuracy) }
    let tracked = min(value, QuantileSketch.largestTracked)
    // The default accuracy's buckets are tabulated (the same indices as the logarithm, without one).
    let bounds = SketchBucketBounds.standard
    if logGamma == bounds.logGamma {
      return Bucket(index: bounds.index(of: tracked), relativeAccuracy: relativeAccuracy)
    }
    return Bucket(index: QuantileSketch.index(of: tracked, logGamma: logGamma), relativeAccuracy: relativeAccuracy)
  }

  /// The bucket of a value above the zero threshold, by its logarithm.
  static func index(of value: Double, logGamma: Double) -> Int {
    Int(ceil(log(value) / logGamma))
  }

  /// Adds a value by its bucket (from a sketch of the same accuracy) `times` times.
  public mutating func add(_ bucket: Bucket, times: UInt64 = 1) {
    assert(bucket.relativeAccuracy == relativeAccuracy, "a bucket of a sketch of another accuracy")
    guard times > 0 else { return }
    count += times
    guard let index = bucket.index else {
      zeroCount += times
      return
    }
    counts[self.bucket(index)] += times
  }

  /// Folds another sketch (of the same accuracy) into this one.
  public mutating func merge(_ other: QuantileSketch) {
    precondition(other.relativeAccuracy == relativeAccuracy, "merged sketches of different accuracy")
    count += other.count
    zeroCount += other.zeroCount
    // Grown once to the other's first and last counted buckets (the range adding them one by one reaches),
    // then added cell by cell through buffers (a replication's sketches merge into its run's sum).
    guard let first = other.counts.firstIndex(where: { $0 > 0 }),
      let last = other.counts.lastIndex(where: { $0 > 0 })
    else { return }
    _ = bucket(other.offset + first)
    let start = bucket(other.offset + last) - (last - first)
    counts.withUnsafeMutableBufferPointer { mine in
      other.counts.withUnsafeBufferPointer { theirs in
        for position in first...last { mine[start + position - first] += theirs[position] }
      }
    }
  }

  /// The p-quantile (p in [0, 1]) within the stated relative accuracy; NaN when empty.
  public func quantile(_ p: Double) -> Double {
    guard count > 0 else { return .nan }
    let rank = UInt64((min(max(p, 0), 1) * Double(count - 1)).rounded(.down))
    var seen = zeroCount
    if seen > rank { return 0 }
    for (position, bucketCount) in counts.enumerated() {
      seen += bucketCount
      if seen > rank {
        let upper = exp(Double(offset + position) * logGamma)
        let gamma = exp(logGamma)
        return 2 * upper / (gamma + 1)
      }
    }
    return exp(Double(offset + counts.count - 1) * logGamma)
  }

  /// How many values fall in each bin: values at most the zero threshold first, then `(0, edges[0]]`,
  /// `(edges[0], edges[1]]`, ..., and above the last edge. A bucket counts where its representative value
  /// falls, so a value within the sketch's relative accuracy of an edge may land on either side of it.
  public func histogram(edges: [Double]) -> [UInt64] {
    var bins = Array(repeating: UInt64(0), count: edges.count + 2)
    bins[0] = zeroCount
    let gamma = exp(logGamma)
    for (position, bucketCount) in counts.enumerated() where bucketCount > 0 {
      let value = 2 * exp(Double(offset + position) * logGamma) / (gamma + 1)
      let bin = edges.firstIndex { value <= $0 } ?? edges.count
      bins[bin + 1] += bucketCount
    }
    return bins
  }

  /// The array position of bucket `index`, growing the dense range to include it.
  private mutating func bucket(_ index: Int) -> Int {
    if counts.isEmpty {
      offset = index
      counts = [0]
      return 0
    }
    if index < offset {
      counts.insert(contentsOf: repeatElement(0, count: offset - index), at: 0)
      offset = index
    } else if index >= offset + counts.count {
      counts.append(contentsOf: repeatElement(0, count: index - offset - counts.count + 1))
    }
    return index - offset
  }
}

/// The exact sketch, for shard files.
extension QuantileSketch: BinaryCodable {
  public func encode(to writer: inout BinaryWriter) {
    writer.double(relativeAccuracy)
    counts.encode(to: &writer)
    writer.signed(Int64(offset))
    writer.unsigned(zeroCount)
    writer.unsigned(count)
  }

  public init(from reader: inout BinaryReader) throws(BinaryDecodingError) {
    let accuracy = try reader.double()
    guard accuracy > 0 && accuracy <= 0.5 else { throw reader.error("a sketch accuracy of \(accuracy)") }
    self.init(relativeAccuracy: accuracy)
    counts = try [UInt64](from: &reader)
    offset = Int(try reader.signed())
    zeroCount = try reader.unsigned()
    count = try reader.unsigned()
    guard counts.reduce(zeroCount, &+) == count else { throw reader.error("a sketch whose buckets do not add up") }
  }
}
