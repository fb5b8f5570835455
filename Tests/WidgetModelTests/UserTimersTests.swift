import SimulationEngine
import Testing

@testable import Results
@testable import WidgetModel

/// The user and the displays (StandBy, CarPlay) driven input by input: a log of the timers they ask for
/// stands in for the device's scheduler.
@Suite("The user and the displays, input by input")
struct UserTimersTests {
  typealias Expected = [TimerLog.Entry]

  @Test("the user asks for the first sleep and wake, then each a day after the last")
  func sleepAndWake() {
    var user = User(UserConfiguration(), pageVisits: RandomStream(seed: StreamSeed(scenarioSeed: 1, stream: 1)))
    #expect(user.asleep)
    var timers = TimerLog()
    user.start(&timers)
    let sleep = SimTime.zero + .hours(23) + .minutes(30)
    let wake = SimTime.zero + .hours(7)
    #expect(
      timers.take() == [.schedule(UserEvent.sleep, 0, at: sleep), .schedule(UserEvent.wake, 0, at: wake)] as Expected)
    timers.now = wake
    user.handle(.wake, &timers)
    #expect(!user.asleep && user.nextWake == wake + .day)
    #expect(timers.take() == [.schedule(UserEvent.wake, 0, at: wake + .day)] as Expected)
    timers.now = sleep
    user.handle(.sleep, &timers)
    #expect(user.asleep)
    #expect(timers.take() == [.schedule(UserEvent.sleep, 0, at: sleep + .day)] as Expected)
  }

  @Test("a display refreshes at once when it comes on and every interval after; going off cancels the next")
  func displayRefreshes() {
    var standby = DockedDisplay(
      enabled: true, interval: .minutes(15), instances: [InstanceID(0)], event: .standbyRefresh)
    let night = SimTime.zero + .hours(23)
    var timers = TimerLog(now: night)
    standby.start(&timers)
    #expect(timers.take() == [.schedule(DisplayEvent.standbyRefresh, 0, at: night)] as Expected)
    standby.refreshed(&timers)
    #expect(timers.take() == [.schedule(DisplayEvent.standbyRefresh, 0, at: night + .minutes(15))] as Expected)
    timers.now = night + .minutes(5)
    standby.start(&timers)
    #expect(
      timers.take() == [
        .cancel(DisplayEvent.standbyRefresh, 0), .schedule(DisplayEvent.standbyRefresh, 0, at: night + .minutes(5)),
      ] as Expected)
    standby.stop(&timers)
    standby.stop(&timers)
    #expect(timers.take() == [.cancel(DisplayEvent.standbyRefresh, 0)] as Expected)
  }

  @Test("a display with nothing on it asks for nothing")
  func unusedDisplay() {
    var carplay = DockedDisplay(enabled: true, interval: .minutes(15), instances: [], event: .carplayRefresh)
    var timers = TimerLog()
    carplay.start(&timers)
    #expect(timers.take().isEmpty)
  }
}
