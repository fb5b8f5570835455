/// How far a median may move the wrong way from its baseline before it counts as a regression, as a
/// fraction of the baseline (`10%` and `0.1` are both 0.1).
public struct BenchmarkTolerance: Sendable, Equatable {
  public let fraction: Double

  public init(fraction: Double) {
    precondition(fraction.isFinite && fraction >= 0, "a tolerance is a finite fraction, at least 0")
    self.fraction = fraction
  }

  /// Parses `10%` (a percentage) or `0.1` (a fraction, at most 1: write `150%` for more, so `10` is never
  /// mistaken for 1000%).
  public init(parsing text: String) throws(BenchmarkToleranceError) {
    let trimmed = text.trimmingSpaces
    func fail(_ reason: String) -> BenchmarkToleranceError {
      BenchmarkToleranceError(
        message: "--tolerance '\(text)': \(reason); write a percentage like 10% or a fraction like 0.1")
    }
    if trimmed.hasSuffix("%") {
      guard let percent = Double(trimmed.dropLast().trimmingSpaces), percent.isFinite, percent >= 0 else {
        throw fail("not a non-negative percentage")
      }
      self.init(fraction: percent / 100)
    } else {
      guard let fraction = Double(trimmed), fraction.isFinite, fraction >= 0 else {
        throw fail("not a non-negative number")
      }
      guard fraction <= 1 else { throw fail("a fraction above 1 is ambiguous") }
      self.init(fraction: fraction)
    }
  }

  /// `10%`, for tables.
  public var percentText: String { "\(BenchmarkTable.format(fraction * 100))%" }
}

/// A `--tolerance` that is not a percentage or fraction.
public struct BenchmarkToleranceError: Error, CustomStringConvertible, Sendable, Equatable {
  public let message: String
  public var description: String { message }
}

extension StringProtocol {
  fileprivate var trimmingSpaces: String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}
