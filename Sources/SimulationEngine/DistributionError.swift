/// A distribution whose parameters cannot describe one (negative spread, empty weights, NaN...).
///
/// The message names the distribution, the offending parameter and what was expected, so the scenario
/// layer can add the file, line, column and key and hand it to the user as is.
public struct DistributionError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The distribution's name as written in scenarios (`lognormal`, `gamma`...).
  public let distribution: String
  /// The parameter at fault (`sigma`, `weights`...).
  public let parameter: String
  /// What was expected, e.g. "must be > 0, got -1".
  public let expectation: String

  public init(distribution: String, parameter: String, expectation: String) {
    self.distribution = distribution
    self.parameter = parameter
    self.expectation = expectation
  }

  public var description: String {
    "\(distribution) distribution: \(parameter) \(expectation)"
  }
}
