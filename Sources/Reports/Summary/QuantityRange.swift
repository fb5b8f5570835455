/// The values a summary metric can take, read from its unit: a fraction lies in [0, 1], a percentage of
/// charge in [0, 100], an hour of day in [0, 24]; every other metric of the summary (counts, rates,
/// seconds, joules, bytes) is non-negative.
public enum QuantityRange: Sendable, Equatable {
  case nonNegative
  case bounded(low: Double, high: Double)

  public init(unit: String) {
    switch unit {
    case "fraction": self = .bounded(low: 0, high: 1)
    case "%": self = .bounded(low: 0, high: 100)
    case "hour of day": self = .bounded(low: 0, high: 24)
    default: self = .nonNegative
    }
  }
}
