import SimulationEngine
import Testing

@testable import Results
@testable import WidgetModel

/// A view of the placeholder is the stalest view there is: staleness counts it at the age of the instance's
/// last good content, so a design whose builds fail cannot look fresh.
@Suite("The placeholder in staleness")
struct PlaceholderStalenessTests {
  @Test("builds that always time out: every view counts, at its time since the widget was added")
  func neverContent() throws {
    let configuration = BuildFailureTests.debugWidget(memory: try .constant(10e6), cpu: try .constant(6), fetch: 0)
    let result = ScenarioRunner.runReplication(configuration, replication: 0)
    let recorder = result.staleness[0]
    #expect(recorder.views > 0 && recorder.placeholderViews == recorder.views)
    let seconds = recorder.seconds
    #expect(seconds.count == recorder.views, "every view is in the staleness figures")
    // Views spread over 3 days since the widget was added at 0: a mean near a day and a half, a maximum
    // below 3 days, and the quantiles as large.
    #expect(seconds.mean > 86_400 && seconds.mean < 2 * 86_400, "\(seconds.mean)")
    #expect(seconds.maximum <= 3 * 86_400 && seconds.maximum > 2 * 86_400)
    #expect(recorder.quantiles.quantile(0.95) > 2 * 86_400)
    #expect(recorder.placeholderAges.count == UInt64(recorder.views))
  }

  @Test("content lost to a timeout: its age runs from the last moment the content was current")
  func lostContent() throws {
    // CPU 3 s or 8 s with equal odds against the 5 s limit: content comes and goes.
    let configuration = BuildFailureTests.debugWidget(
      memory: try .constant(10e6), cpu: try .empirical(values: [3, 8]), fetch: 0)
    let result = ScenarioRunner.runReplication(configuration, replication: 0)
    let recorder = result.staleness[0]
    #expect(recorder.placeholderViews > 0 && recorder.placeholderViews < recorder.views)
    #expect(recorder.seconds.count == recorder.views)
    #expect(recorder.placeholderAges.count == UInt64(recorder.placeholderViews))
    // Reloads every 30 min or sooner: no placeholder view is older than the last good content by more than a
    // few failed reloads, far less than the run.
    #expect(recorder.placeholderAges.quantile(0.5) < 4 * 3_600)

    let now = SimTime.zero + .hours(5)
    #expect(Display.current.lastCurrent(at: now) == now)
    #expect(Display.behind(since: .zero + .hours(2)).lastCurrent(at: now) == .zero + .hours(2))
    #expect(Display.placeholder.lastCurrent(at: now) == nil)
  }
}
