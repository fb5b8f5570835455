import SimulationEngine

/// What one widget instance looked like each time the user saw it.
public struct StalenessRecorder: Sendable {
  /// Views of the instance.
  public private(set) var views = 0
  /// Views that found the placeholder (no content yet, or a failed build).
  public private(set) var placeholderViews = 0
  /// Views that found content older than the latest data.
  public private(set) var staleViews = 0
  /// Staleness in seconds at every view with content (0 when current).
  public private(set) var seconds = RunningStatistics()
  /// The same values, for quantiles (within 0.5% relative accuracy; see ``QuantileSketch``).
  public private(set) var quantiles = QuantileSketch()

  public init() {}

  mutating func recordPlaceholder() {
    views += 1
    placeholderViews += 1
  }

  mutating func record(staleness: SimDuration) {
    views += 1
    let value = staleness.seconds
    if value > 0 { staleViews += 1 }
    seconds.add(value)
    quantiles.add(value)
  }
}
