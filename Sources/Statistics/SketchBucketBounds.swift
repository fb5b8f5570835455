#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where each bucket of a ``QuantileSketch`` starts, found once per accuracy, so that a value's bucket is a
/// table look-up and a comparison or two instead of a logarithm (a staleness sketch takes a value at every
/// view of every widget: the logarithm was the larger part of recording one).
///
/// The sketch's bucket of `v` is `ceil(log(v) / logGamma)`, a step function that never decreases as `v`
/// grows (`log` and the division by a positive constant keep order). `lowest[k]` is the smallest double whose
/// bucket is at least `firstIndex + k`, found with that very expression, so the table gives the same index,
/// to the bit, for every value: a search of the bit patterns between the two neighbours of each bound found by
/// `exp`. A look-up starts from the bucket of the smallest value with the same exponent and top
/// ``cellBits`` bits of mantissa (a cell spans at most three buckets at the default accuracy) and steps up
/// while the value reaches the next bound.
struct SketchBucketBounds: @unchecked Sendable {
  // @unchecked: the two buffers are written only in `init` and never freed or written again (the tables
  // live for the whole process, as the `static let` that holds them), so sharing them across threads is safe.

  /// Mantissa bits (after the exponent) that pick a look-up cell.
  static let cellBits = 6
  let logGamma: Double
  /// The bucket index of `lowest[0]`: that of the smallest tracked value above the zero threshold.
  let firstIndex: Int
  /// The bucket index of ``QuantileSketch/largestTracked``.
  let lastIndex: Int
  /// `lowest[k]`: the smallest double in bucket `firstIndex + k` or above; one more, `+infinity`, ends it.
  private let lowest: UnsafeMutableBufferPointer<Double>
  /// Per cell (the tracked range's doubles by their top bits): the bucket index of its smallest value.
  private let cellStart: UnsafeMutableBufferPointer<Int32>
  /// The bit pattern of the first cell's values, shifted down to the cell bits.
  private let firstCell: Int

  /// The bounds of the default accuracy's buckets, made on first use.
  static let standard = SketchBucketBounds(logGamma: QuantileSketch().logGamma)

  init(logGamma: Double) {
    self.logGamma = logGamma
    let smallest = QuantileSketch.zeroThreshold.nextUp
    let largest = QuantileSketch.largestTracked
    let bucket = { (value: Double) in QuantileSketch.index(of: value, logGamma: logGamma) }
    firstIndex = bucket(smallest)
    lastIndex = bucket(largest)
    lowest = .allocate(capacity: lastIndex - firstIndex + 2)
    lowest[0] = smallest
    for index in firstIndex + 1...lastIndex {
      lowest[index - firstIndex] = SketchBucketBounds.smallestValue(
        atLeast: index, estimate: exp(Double(index - 1) * logGamma), bucket: bucket)
    }
    lowest[lastIndex - firstIndex + 1] = .infinity
    let shift = Double.significandBitCount - SketchBucketBounds.cellBits
    firstCell = Int(smallest.bitPattern >> shift)
    let cells = Int(largest.bitPattern >> shift) - firstCell + 1
    cellStart = .allocate(capacity: cells)
    var index = firstIndex
    for cell in 0..<cells {
      let start = Swift.max(smallest, Double(bitPattern: UInt64(firstCell + cell) << shift))
      while lowest[index - firstIndex + 1] <= start { index += 1 }
      cellStart[cell] = Int32(index)
    }
  }

  /// The bucket of a value above the zero threshold, at most ``QuantileSketch/largestTracked``.
  @inline(__always)
  func index(of value: Double) -> Int {
    let cell = Int(value.bitPattern >> (Double.significandBitCount - SketchBucketBounds.cellBits)) - firstCell
    var index = Int(cellStart[cell])
    while value >= lowest[index - firstIndex + 1] { index += 1 }
    return index
  }

  /// The smallest double in bucket `index` or above (`index` in `firstIndex...lastIndex`).
  func lowestValue(ofBucket index: Int) -> Double { lowest[index - firstIndex] }

  /// The smallest double whose `bucket` is at least `index`: a binary search over bit patterns (ordered as
  /// the positive doubles they stand for), between bounds widened from `exp`'s estimate until they straddle.
  private static func smallestValue(atLeast index: Int, estimate: Double, bucket: (Double) -> Int) -> Double {
    var width: UInt64 = 16
    var below = estimate.bitPattern - width
    var above = estimate.bitPattern + width
    while bucket(Double(bitPattern: below)) >= index || bucket(Double(bitPattern: above)) < index {
      width *= 2
      below = estimate.bitPattern - width
      above = estimate.bitPattern + width
    }
    // bucket(below) < index <= bucket(above)
    while above - below > 1 {
      let middle = below + (above - below) / 2
      if bucket(Double(bitPattern: middle)) >= index { above = middle } else { below = middle }
    }
    return Double(bitPattern: above)
  }
}
