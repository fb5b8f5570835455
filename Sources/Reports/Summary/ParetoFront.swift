/// Which of several options no other beats on both of two figures to minimise (a design's cost and its
/// staleness): the Pareto front. An option is off it when another is at most as high on both and lower on
/// one; options with equal figures are all on it.
public enum ParetoFront {
  /// For each `(first, second)` pair, whether it is on the front (on the means given).
  public static func members(_ options: [(first: Double, second: Double)]) -> [Bool] {
    options.map { option in
      !options.contains { other in
        other.first <= option.first && other.second <= option.second
          && (other.first < option.first || other.second < option.second)
      }
    }
  }
}
