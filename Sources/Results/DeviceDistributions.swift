import SimulationEngine
import Statistics

/// Per-device figures across a fleet: exact sums for means, sketches for quantiles (merging is exact).
public struct DeviceDistributions: Sendable {
  /// One figure per device.
  public struct Figure: Sendable {
    /// Sum over devices, in millionths.
    package var sumMicro: Int128 = 0
    public package(set) var count = 0
    public package(set) var quantiles = QuantileSketch()

    mutating func add(_ value: Double) {
      sumMicro += Int128(Int64(clampedNearest: value * 1e6))
      count += 1
      quantiles.add(Swift.max(0, value))
    }

    mutating func merge(_ other: Figure) {
      sumMicro += other.sumMicro
      count += other.count
      quantiles.merge(other.quantiles)
    }

    public var mean: Double { count > 0 ? sumMicro.double / 1e6 / Double(count) : .nan }
  }

  /// Reloads that ran per day, all widgets of the device.
  public package(set) var reloadsPerDay = Figure()
  /// The device's staleness p95 in seconds over all its widgets' views.
  public package(set) var stalenessP95 = Figure()
  /// Joules per day its widgets, pushes and Live Activities cost.
  public package(set) var joulesPerDay = Figure()

  public init() {}

  /// One device's figures (its staleness p95 only when it had views).
  package mutating func add(reloadsPerDay reloads: Double, stalenessP95 staleness: Double?, joulesPerDay joules: Double)
  {
    reloadsPerDay.add(reloads)
    if let staleness { stalenessP95.add(staleness) }
    joulesPerDay.add(joules)
  }

  public mutating func merge(_ other: DeviceDistributions) {
    reloadsPerDay.merge(other.reloadsPerDay)
    stalenessP95.merge(other.stalenessP95)
    joulesPerDay.merge(other.joulesPerDay)
  }
}

/// The exact distributions, for shard files.
extension DeviceDistributions: BinaryCodable {
  public func encode(to writer: inout BinaryWriter) {
    for figure in [reloadsPerDay, stalenessP95, joulesPerDay] {
      writer.signed(figure.sumMicro)
      figure.count.encode(to: &writer)
      figure.quantiles.encode(to: &writer)
    }
  }

  public init(from reader: inout BinaryReader) throws(BinaryDecodingError) {
    self.init()
    var figures: [Figure] = []
    for _ in 0..<3 {
      var figure = Figure()
      figure.sumMicro = try reader.signed128()
      figure.count = try Int(from: &reader)
      figure.quantiles = try QuantileSketch(from: &reader)
      figures.append(figure)
    }
    reloadsPerDay = figures[0]
    stalenessP95 = figures[1]
    joulesPerDay = figures[2]
  }
}
