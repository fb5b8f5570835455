import SimulationEngine
import Statistics

/// What one widget instance (or Live Activity kind) looked like each time a user saw it, over one device or
/// many. Kept in integers (milliseconds, and their squares in 128 bits) so that recorders from many devices
/// add up to the same bits in any order.
public struct StalenessRecorder: Sendable, Equatable {
  /// Views.
  public private(set) var views = 0
  /// Views that found the placeholder (no content yet, or a failed build).
  public private(set) var placeholderViews = 0
  /// Views that found content older than the latest data.
  public private(set) var staleViews = 0
  /// Every view, and the sum, sum of squares, minimum and maximum of its staleness in ms. A view of the
  /// placeholder is the stalest view there is: it counts at the age of the instance's last good content (how
  /// long since it last showed current data, or since it was added when it never showed any), so a design
  /// whose builds fail cannot look fresh.
  private var measured = 0
  private var sumMillis: Int128 = 0
  private var sumSquaresMillis: Int128 = 0
  private var minimumMillis = Int64.max
  private var maximumMillis: Int64 = 0
  /// Staleness in seconds at every view, placeholder views included, for quantiles (within 0.5%; see
  /// ``QuantileSketch``).
  public private(set) var quantiles = QuantileSketch()
  /// The placeholder views' ages alone (their part of ``quantiles``): empty, and without storage, while no
  /// view finds the placeholder.
  public private(set) var placeholderAges = QuantileSketch()

  public init() {}

  /// Records a view of the placeholder `age` after the instance's last good content (found in `bucket`).
  package mutating func recordPlaceholder(age: SimDuration, bucket: QuantileSketch.Bucket) {
    placeholderViews += 1
    placeholderAges.add(bucket)
    measure(age, bucket: bucket)
  }

  package mutating func recordPlaceholder(age: SimDuration) {
    recordPlaceholder(age: age, bucket: quantiles.bucket(of: age.seconds))
  }

  package mutating func record(staleness: SimDuration) {
    record(staleness: staleness, bucket: quantiles.bucket(of: staleness.seconds))
  }

  /// Records a view with content `staleness` old, whose quantile bucket is `bucket` (found once for every
  /// recorder and sketch the view goes to).
  package mutating func record(staleness: SimDuration, bucket: QuantileSketch.Bucket) {
    if staleness > .zero { staleViews += 1 }
    measure(staleness, bucket: bucket)
  }

  /// Counts a view `staleness` old in the sums and the sketch.
  private mutating func measure(_ staleness: SimDuration, bucket: QuantileSketch.Bucket) {
    views += 1
    let millis = (staleness.microseconds + 500) / 1_000
    measured += 1
    sumMillis += Int128(millis)
    // A 64-bit value's square is below 2^126: the 128-bit product cannot overflow (one multiply, no check).
    sumSquaresMillis += Int128(millis) &* Int128(millis)
    minimumMillis = Swift.min(minimumMillis, millis)
    maximumMillis = Swift.max(maximumMillis, millis)
    quantiles.add(bucket)
  }

  /// Adds another recorder's views.
  public mutating func merge(_ other: StalenessRecorder) {
    views += other.views
    placeholderViews += other.placeholderViews
    staleViews += other.staleViews
    measured += other.measured
    sumMillis += other.sumMillis
    sumSquaresMillis += other.sumSquaresMillis
    minimumMillis = Swift.min(minimumMillis, other.minimumMillis)
    maximumMillis = Swift.max(maximumMillis, other.maximumMillis)
    quantiles.merge(other.quantiles)
    placeholderAges.merge(other.placeholderAges)
  }

  /// Count, mean, variance, minimum and maximum of the staleness in seconds (at millisecond resolution).
  public var seconds: RunningStatistics {
    guard measured > 0 else { return RunningStatistics() }
    let count = Int128(measured)
    // n * sum(x^2) - (sum x)^2 is exact in 128 bits; divided by n it is the sum of squared deviations.
    let spread = (count * sumSquaresMillis - sumMillis * sumMillis).double / Double(measured) / 1e6
    return RunningStatistics(
      count: measured, mean: sumMillis.double / Double(measured) / 1e3, sumOfSquaredDeviations: spread,
      minimum: Double(minimumMillis) / 1e3, maximum: Double(maximumMillis) / 1e3)
  }
}

/// The exact recorder, for shard files.
extension StalenessRecorder: BinaryCodable {
  public func encode(to writer: inout BinaryWriter) {
    for value in [views, placeholderViews, staleViews, measured] { value.encode(to: &writer) }
    writer.signed(sumMillis)
    writer.signed(sumSquaresMillis)
    writer.signed(minimumMillis)
    writer.signed(maximumMillis)
    quantiles.encode(to: &writer)
    placeholderAges.encode(to: &writer)
  }

  public init(from reader: inout BinaryReader) throws(BinaryDecodingError) {
    self.init()
    views = try Int(from: &reader)
    placeholderViews = try Int(from: &reader)
    staleViews = try Int(from: &reader)
    measured = try Int(from: &reader)
    sumMillis = try reader.signed128()
    sumSquaresMillis = try reader.signed128()
    minimumMillis = try reader.signed()
    maximumMillis = try reader.signed()
    quantiles = try QuantileSketch(from: &reader)
    placeholderAges = try QuantileSketch(from: &reader)
  }
}
