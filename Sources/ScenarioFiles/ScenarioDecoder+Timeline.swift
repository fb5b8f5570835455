import SimulationEngine
import WidgetModel
import Yams

/// A widget's `timeline`: its reload policy with the interval or times policy after takes, the entries it
/// holds and their spacing, its alignment and the daily window it reloads in.
extension ScenarioDecoder {
  static func decodeTimeline(_ value: YAMLValue) throws(ScenarioError) -> TimelineConfiguration {
    var reader = try value.mapping()
    let policyValue = try reader.required("policy", "at_end, after or never")
    let policyName = try policyValue.string()
    let afterValue = reader.optional("after")
    let atValue = reader.optional("at")
    var timeline = TimelineConfiguration(policy: .never)
    if let entries = reader.optional("entries") {
      timeline.entries = try entries.integer(in: 1...maximumEntries)
    }
    if let spacing = reader.optional("spacing") {
      timeline.spacing = try spacing.duration(in: 0...(7 * 86_400), exclusiveLower: true)
      if timeline.spacing < .minutes(5) && timeline.entries > 1 {
        spacing.warn(
          "entries \(spacing.shown) apart: allowed (entries render from the timeline without a reload), but "
            + "each costs render energy and memory; the 5-minute guidance is about reload cadence")
      }
    }
    try decodePolicy(policyValue, named: policyName, after: afterValue, at: atValue, into: &timeline)
    if let align = reader.optional("align") {
      timeline.alignment = try align.choice(TimelineAlignment.self)
      if timeline.alignment == .clock && (afterValue == nil || policyName != "after") {
        throw align.error("align: clock needs policy after with an interval ('after: 15m')")
      }
    }
    if let active = reader.optional("active") {
      if policyName == "never" { throw active.error("'active' needs a policy that reloads (after or at_end)") }
      timeline.activeWindow = try decodeWindow(active)
    }
    try reader.finish()
    return timeline
  }

  /// The timeline's `policy` (written at `policyValue`) with its `after` interval or `at` times: policy
  /// after takes one of the two, not both, and the other policies take neither.
  private static func decodePolicy(
    _ policyValue: YAMLValue, named policyName: String, after afterValue: YAMLValue?, at atValue: YAMLValue?,
    into timeline: inout TimelineConfiguration
  ) throws(ScenarioError) {
    switch policyName {
    case "at_end": timeline.policy = .atEnd
    case "never": timeline.policy = .never
    case "after":
      if let atValue {
        if let afterValue {
          throw afterValue.error("give either 'after' (an interval) or 'at' (local times), not both")
        }
        timeline.times = try decodeTimes(atValue)
        timeline.policy = .after(.zero)
      } else {
        guard let afterValue else {
          throw policyValue.error(
            "policy after needs 'after' (the earliest time of the next reload, e.g. after: 15m) or 'at' (local times, e.g. at: [\"09:30\"])"
          )
        }
        timeline.policy = .after(try afterValue.duration(in: 0...(365 * 86_400), exclusiveLower: true))
      }
    default:
      let names = ["at_end", "after", "never"]
      throw policyValue.error(
        "expected one of at_end, after, never, got \(policyValue.shown)\(DidYouMean.hint(for: policyName, among: names))"
      )
    }
    if let afterValue, policyName != "after" {
      throw afterValue.error("'after' applies only to policy after (the policy is \(policyName))")
    }
    if let atValue, policyName != "after" {
      throw atValue.error("'at' applies only to policy after (the policy is \(policyName))")
    }
  }

  /// `["09:30", "16:00"]`: local times of day, at least one, no repeats.
  static func decodeTimes(_ value: YAMLValue) throws(ScenarioError) -> [TimeOfDay] {
    let nodes = try value.sequence()
    guard !nodes.isEmpty else { throw value.error("expected at least one local time, e.g. at: [\"09:30\"]") }
    var times: [TimeOfDay] = []
    for (position, node) in nodes.enumerated() {
      let item = YAMLValue(node: node, path: "\(value.path)[\(position)]", source: value.source)
      let time = try item.timeOfDay()
      let value = TimeOfDay(hours: time.hours, minutes: time.minutes)
      if times.contains(value) { throw item.error("\(item.shown) is listed twice") }
      times.append(value)
    }
    return times
  }
}
