/// The repetitions of one benchmark measurement, and the CSV row it becomes.
public struct BenchmarkResult: Sendable, Equatable {
  /// What is measured, e.g. `event_set_hold`.
  public let benchmark: String
  /// The setting it was measured at, e.g. `256` (events pending) or `exponential`.
  public let parameter: String
  /// The unit of every sample, e.g. `ns_per_hold`.
  public let unit: String
  /// One figure per repetition, in measurement order.
  public let samples: [Double]

  public init(benchmark: String, parameter: String, unit: String, samples: [Double]) {
    precondition(!samples.isEmpty, "a benchmark result needs at least one repetition")
    self.benchmark = benchmark
    self.parameter = parameter
    self.unit = unit
    self.samples = samples
  }

  /// The median repetition: robust to a repetition disturbed by the rest of the machine.
  public var median: Double {
    let sorted = samples.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  public var minimum: Double { samples.min() ?? .nan }
  public var maximum: Double { samples.max() ?? .nan }
}
