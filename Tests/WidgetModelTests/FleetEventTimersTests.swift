import SimulationEngine
import Testing

@testable import WidgetModel

/// A device's fleet-wide events driven input by input: a log of the timers they ask for stands in for the
/// device's scheduler.
@Suite("Fleet-wide events' timers, input by input")
struct FleetEventTimersTests {
  typealias Expected = [TimerLog.Entry]

  @Test("the first occurrence after now is asked for at start, and each occurrence asks for the next")
  func occurrences() {
    var configuration = FleetEventTests.breaking(devices: 1, pushRate: nil)
    configuration.events[0].times = [TimeOfDay(hours: 9, minutes: 0), TimeOfDay(hours: 18, minutes: 0)]
    var events = FleetEventReception(
      configuration, schedule: FleetEventSchedule(configuration, replication: 0), device: 0, offset: .zero,
      installed: nil, audience: { _ in RandomStream(seed: StreamSeed(scenarioSeed: 2, stream: 1)) })
    let nine = SimTime.zero + .hours(9)
    var timers = TimerLog(now: .zero + .hours(1))
    events.start(&timers)
    #expect(timers.take() == [.schedule(FleetWideEvent.happened, 0, at: nine)] as Expected)
    timers.now = nine
    _ = events.fired(0, &timers)
    #expect(timers.take() == [.schedule(FleetWideEvent.happened, 0, at: nine + .hours(9))] as Expected)
  }
}
