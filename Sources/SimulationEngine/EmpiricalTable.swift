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
  /// A copy of `values` in memory this object owns, for the sampler (same reasoning: written once here).
  nonisolated(unsafe) let valueStorage: UnsafeMutablePointer<Double>

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
    valueStorage = .allocate(capacity: values.count)
    valueStorage.initialize(from: values, count: values.count)
  }

  deinit {
    gsl_ran_discrete_free(table)
    valueStorage.deallocate()
  }

  /// A plain-value view of the table for sampling; valid while this object lives.
  var sampler: EmpiricalSampler { EmpiricalSampler(table: table, values: valueStorage) }

  @usableFromInline
  static func == (lhs: EmpiricalTable, rhs: EmpiricalTable) -> Bool {
    lhs.values == rhs.values && lhs.probabilities == rhs.probabilities
  }
}

/// What sampling an empirical distribution needs, as plain pointers, so that `Distribution.Shape` stays a
/// trivially copyable value (no reference counting when the sampler switches on it).
///
/// Sendable although it holds pointers: they point into an `EmpiricalTable` that the owning `Distribution`
/// keeps alive, and that memory is written once, at construction, and only read afterwards.
@usableFromInline
struct EmpiricalSampler: @unchecked Sendable, Equatable {
  @usableFromInline let table: UnsafeMutablePointer<gsl_ran_discrete_t>
  @usableFromInline let values: UnsafeMutablePointer<Double>

  @inlinable
  func sample(_ rng: UnsafeMutablePointer<gsl_rng>) -> Double {
    values[gsl_ran_discrete(rng, table)]
  }
}
