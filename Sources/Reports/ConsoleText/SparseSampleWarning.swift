import Results
import WidgetModel

/// The warning a sampled fleet's run prints when its busiest second received may be a fleet event's response
/// that the sample holds too few requests of to estimate: a story's response is one second that the whole fleet
/// shares, which the sample shows as the few of its phones that acted then, and a handful of requests says
/// little of the share (docs/capacity.md, "How often the interval holds": from a 200-phone sample of a
/// breaking story's fleet the estimate is 0.8 to 1.6 times the whole fleet's busiest second, its interval as
/// wide as the counting error of so few requests).
public enum SparseSampleWarning {
  /// Fewest of the sample's requests in its busiest second for that second to be estimated: a count's own
  /// 95% error is then within a quarter of it (`1.96 sqrt(n) / n <= 0.25`, so `n >= 61.5`).
  public static let fewestRequests = SampledLoadEstimate.fewestPeakRequests

  /// The warning for `summary` of `configuration` (none for a fleet that simulates every phone, that has no
  /// fleet event, or whose sample's busiest second holds enough requests).
  public static func warnings(_ configuration: ScenarioConfiguration, _ summary: RunSummary) -> [String] {
    let fleet = configuration.fleet
    guard fleet.devices > 1, fleet.scale > 1, !configuration.events.isEmpty,
      let raw = summary.row("raw_peak_requests_per_second", widget: ServerDirection.received.name)
    else { return [] }
    let requests = raw.values.mean / fleet.scale
    guard requests > 0, requests < fewestRequests else { return [] }
    let devices = Int((Double(fleet.devices) * fewestRequests / requests / 100).rounded(.up)) * 100
    return [
      "the sample's busiest second received holds \(RunSummaryText.fixed(requests, 0)) requests of its "
        + "\(fleet.devices) phones: too few to estimate a fleet event's response, which the whole fleet shares "
        + "(counting alone leaves it \(RunSummaryText.fixed(196 / requests.squareRoot(), 0))% either way at 95%, "
        + "which its interval carries); simulate about \(devices) phones (fleet.devices) for "
        + "\(Int(fewestRequests)) requests in it"
    ]
  }
}
