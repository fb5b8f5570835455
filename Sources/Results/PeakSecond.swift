/// The busiest second of one side of the servers' load in one replication (what they receive, or what they
/// send), what made it, and what the scenario says happens then.
public struct PeakSecond: Sendable, Equatable {
  public let direction: ServerDirection
  /// Requests in that second, scaled to the real fleet.
  public let requests: Double
  /// Since 00:00 UTC of the first measured day.
  public let second: Int
  /// The second's sources with their requests (scaled, or the whole fleet's expected requests when the
  /// figures are estimated from a sample), most first; quiet sources left out.
  public let sources: [ServerSource]
  public let sourceRequests: [Double]
  /// What the scenario says happens then (``HerdRule/explanation(second:)``); nil when nothing does.
  public let explanation: String?
  /// Whether one of the second's sources is a herd there (``HerdRule``).
  public let isHerd: Bool

  /// The peak of `figures` (one direction's provisioning figures) in `seconds`.
  package init(
    _ direction: ServerDirection, _ figures: ProvisioningFigures, _ seconds: ServerSeconds, scale: Double,
    rule: HerdRule, meansPerSecond: [Double], estimatedBySource: [Double]? = nil
  ) {
    self.direction = direction
    requests = figures.peakPerSecond
    second = figures.peakSecond
    var found = requests > 0 ? seconds.sources(second: second, direction: direction, scale: scale) : []
    if let estimatedBySource, requests > 0 {
      found = ServerSource.allCases.enumerated().filter { direction.counts($1) && estimatedBySource[$0] > 0 }
        .sorted { (estimatedBySource[$0.offset], -$0.offset) > (estimatedBySource[$1.offset], -$1.offset) }
        .map { ($1, estimatedBySource[$0]) }
    }
    sources = found.map(\.source)
    sourceRequests = found.map(\.requests)
    explanation = requests > 0 ? rule.explanation(second: second) : nil
    let second = figures.peakSecond
    isHerd = ServerSource.allCases.contains { source in
      direction.counts(source) && !source.isFleetWide
        && rule.isHerd(
          seconds.phones(second: second, source: source), meanPerSecond: meansPerSecond[source.rawValue])
    }
  }
}
