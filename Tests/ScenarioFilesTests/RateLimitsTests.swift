import TestSupport
import Testing
import WidgetModel

@testable import ScenarioFiles

@Suite("Limits on what the rates add up to")
struct RateLimitsTests {
  static func scenario(days: Int = 7, _ rest: String) -> String {
    """
    name: rates
    days: \(days)
    widgets:
      - id: orders
        kind: Orders
        timeline: {policy: after, after: 15m}
    \(rest)
    """
  }

  /// The error loading `text` under `limits`, and how long the refusal took.
  static func refusal(_ text: String, _ limits: ScenarioLimits = .standard) -> (ScenarioError?, Duration) {
    let clock = ContinuousClock()
    let start = clock.now
    do {
      _ = try ScenarioLoader.load(text: text, file: "rates.yaml", limits: limits)
      return (nil, clock.now - start)
    } catch {
      return (error, clock.now - start)
    }
  }

  @Test("a replication's fleet event times, follow-ups included, are limited; named at the busiest event")
  func fleetEventTimes() throws {
    // 200 an hour with 1,000 follow-ups over 1 day: 4.8e6 times a day, 1.4e7 in the 3 days the schedule spans.
    let text = Self.scenario(
      days: 1,
      """
      events:
        - {id: daily, at: ["12:00"], changes: [Orders]}
        - id: flood
          rate: {per_hour: 200}
          changes: [Orders]
          follow_ups: {updates: 1000, spacing: {dist: exponential, mean: 1m}}
      """)
    let (error, elapsed) = Self.refusal(text)
    #expect(error?.keyPath == "events[flood]")
    #expect(error?.line == 9 && error?.column == 5)
    #expect(
      error?.message
        == "4.8e6 times a day (follow-ups included) over 3 days (the run's and a day either side): 1.4e7 fleet "
        + "event times (follow-ups included) in one replication is above the limit of 10000000 (pass --allow-large "
        + "to allow up to 100000000)")
    #expect(elapsed < .seconds(1))
    // --allow-large lifts it to 1e8 times.
    let (allowed, _) = Self.refusal(text.replacing("per_hour: 200", with: "per_hour: 20"), .large)
    #expect(allowed == nil)
  }

  @Test("burst updates pending at once are limited to a quarter of the event set, --allow-large or not")
  func pendingBurstUpdates() throws {
    // 100 bursts an hour of 1,000 updates an hour apart: each burst keeps hundreds pending for a week.
    let text = Self.scenario(
      """
          data:
            changes:
              bursts: {per_hour: 100, updates: 1000, spacing: {dist: exponential, mean: 1h}}
      """)
    for limits in [ScenarioLimits.standard, .large] {
      let (error, elapsed) = Self.refusal(text, limits)
      #expect(error?.keyPath == "widgets[orders].data.changes.bursts")
      #expect(error?.line == 9 && error?.column == 17)
      #expect(error?.message.hasPrefix("bursts keep about 1.5e7 updates pending on one device at once") == true)
      #expect(elapsed < .seconds(1))
    }
    // Ten times fewer bursts, ten minutes apart: about 8.3e5 pending, allowed.
    let (allowed, _) = Self.refusal(
      text.replacing("per_hour: 100", with: "per_hour: 10").replacing("mean: 1h", with: "mean: 10m"))
    #expect(allowed == nil)
  }

  @Test("pending updates by Little's law: j spacings for the j-th update, at most the whole run")
  func pendingSeconds() {
    #expect(ScenarioRates.pendingSeconds(updates: 1, spacing: 600, run: 86_400) == 0)
    #expect(ScenarioRates.pendingSeconds(updates: 4, spacing: 600, run: 86_400) == 600 * 6)
    // Spacing past the run: every update waits to its end.
    #expect(ScenarioRates.pendingSeconds(updates: 4, spacing: 1e6, run: 86_400) == 3 * 86_400)
    #expect(ScenarioRates.pendingSeconds(updates: 4, spacing: .infinity, run: 86_400) == 3 * 86_400)
    #expect(ScenarioRates.meanSpacingSeconds(nil, default: 600) == 600)
  }

  @Test("large rates are counted, not simulated: taps on 10^7 devices are refused in milliseconds")
  func countedWork() throws {
    var controls = "controls:\n"
    for index in 0..<100 { controls += "  - {id: c\(index), kind: Toggle\(index), taps: {per_day: 1000000}}\n" }
    let (error, elapsed) = Self.refusal(Self.scenario("fleet: {devices: 10000000}\n" + controls))
    // 8 days: 7 measured and the warm-up of the default install spread.
    #expect(error?.message.contains("x 990102 events each (counted from its rates) = 4.0e16 events") == true)
    #expect(elapsed < .seconds(1))
    // Small rates are still measured on one device, as before.
    let loaded = try ScenarioLoader.load(text: Self.scenario(""), file: "rates.yaml")
    #expect(loaded.work.measured)
    #expect(loaded.work.description.contains("(measured on one device)"))
  }

  @Test("a list of more widgets than a device may hold is refused before any widget is read")
  func widgetListLength() throws {
    var text = "name: many\nwidgets:\n"
    for index in 0..<1_000 { text += "  - {id: w\(index), kind: K\(index), timeline: {policy: never}}\n" }
    text += "  - {id: last, kind: Last, timeline: {policy: never}, colour: red}\n"
    let (error, _) = Self.refusal(text)
    #expect(error?.keyPath == "widgets")
    #expect(error?.message == "at most 1000 widget instances on one device, got 1001 widgets")
  }

  @Test("--max-replications is held to the replication limit")
  func maximumReplications() {
    #expect(ScenarioLimits.standard.refusal(replications: 100_000) == nil)
    #expect(
      ScenarioLimits.standard.refusal(replications: 99_999_999_999)
        == "99999999999 replications is above the limit of 100000 (pass --allow-large to allow up to 10000000)")
    #expect(
      ScenarioLimits.large.refusal(replications: 99_999_999_999)
        == "99999999999 replications is above the hard limit of 10000000, which --allow-large does not lift")
  }

  @Test("the work description stays finite and trap-free for any events per widget-day")
  func hugeDescription() {
    let work = WorkEstimate(
      devices: 1, days: 1, instances: 1, replications: 1, eventsPerDeviceDay: 1e300, measured: false)
    #expect(work.description.contains("x 1.0e300 events each (counted from its rates)"))
  }
}
