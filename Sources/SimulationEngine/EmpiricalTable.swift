import CGSL

/// Values with weights, preprocessed by `gsl_ran_discrete_preproc` into Walker's alias table.
@usableFromInline
final class EmpiricalTable: Sendable, Equatable {
  let values: [Double]
  /// Weights normalised to probabilities.
  let probabilities: [Double]
  /// Sendable although it holds a pointer: the table is written once by `gsl_ran_discrete_preproc` in
  /// `init`, and afterwards only read (`gsl_ran_discrete` does not modify it), then freed in `deinit`.
  nonisolated(unsafe) let table: UnsafeMutablePointer<gsl_ran_discrete_t>

  init(values: [Double], weights: [Double]) throws(DistributionError) {
    let name = "empirical"
    guard !values.isEmpty else {
      throw DistributionError(distribution: name, parameter: "values", expectation: "must hold at least one value")
    }
    guard weights.count == values.count else {
      throw DistributionError(
        distribution: name, parameter: "weights",
        expectation: "must have one weight per value (\(values.count)), got \(weights.count)")
    }
    for (index, value) in values.enumerated() where !value.isFinite {
      throw DistributionError(
        distribution: name, parameter: "values[\(index)]", expectation: "must be a finite number, got \(value)")
    }
    for (index, weight) in weights.enumerated() where !(weight.isFinite && weight >= 0) {
      throw DistributionError(
        distribution: name, parameter: "weights[\(index)]", expectation: "must be a finite number >= 0, got \(weight)")
    }
    let total = weights.reduce(0, +)
    guard total > 0, total.isFinite else {
      throw DistributionError(
        distribution: name, parameter: "weights", expectation: "must have a finite, positive sum, got \(total)")
    }
    GSL.configure()
    guard let table = weights.withUnsafeBufferPointer({ gsl_ran_discrete_preproc($0.count, $0.baseAddress) }) else {
      throw DistributionError(distribution: name, parameter: "weights", expectation: "were rejected by GSL")
    }
    self.values = values
    self.probabilities = weights.map { $0 / total }
    self.table = table
  }

  deinit {
    gsl_ran_discrete_free(table)
  }

  @usableFromInline
  func sample(_ rng: UnsafeMutablePointer<gsl_rng>) -> Double {
    values[gsl_ran_discrete(rng, table)]
  }

  @usableFromInline
  static func == (lhs: EmpiricalTable, rhs: EmpiricalTable) -> Bool {
    lhs.values == rhs.values && lhs.probabilities == rhs.probabilities
  }
}
