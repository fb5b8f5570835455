import SimulationEngine
import Testing

@testable import Results
@testable import WidgetModel

/// The app's sessions and its Background App Refresh request driven input by input: logs of the timers
/// they ask for and of the app wakes they count stand in for the device's scheduler and result.
@Suite("The app's timers, input by input")
struct AppTimersTests {
  typealias Expected = [TimerLog.Entry]

  /// The app wakes counted, in order.
  struct WakeLog: AppWakeRecording {
    var wakes: [(hour: Int, channel: AppWakeChannel, outcome: AppWakeOutcome)] = []

    mutating func countAppWake(hourIndex: Int, _ channel: AppWakeChannel, _ outcome: AppWakeOutcome) {
      wakes.append((hourIndex, channel, outcome))
    }
  }

  @Test("an open and an audio session ask for their ends; a longer one moves an end, a force-quit cancels both")
  func sessions() throws {
    var app = DormancyTests.app(dormantAfter: nil)
    let ten = SimTime.zero + .hours(10)
    var timers = TimerLog(now: ten)
    app.opened(length: try .constant(600), widgetShare: 0, ignoreWindow: .zero, &timers)
    #expect(timers.take() == [.schedule(AppSessionEvent.close, 0, at: ten + .minutes(10))] as Expected)
    timers.now = ten + .minutes(5)
    app.audioStarted(length: try .constant(1_200), &timers)
    #expect(timers.take() == [.schedule(AppSessionEvent.audioEnd, 0, at: ten + .minutes(25))] as Expected)
    // A shorter open keeps the session's end where it was, and still replaces its event.
    app.opened(length: try .constant(60), widgetShare: 0, ignoreWindow: .zero, &timers)
    #expect(
      timers.take() == [
        .cancel(AppSessionEvent.close, 0), .schedule(AppSessionEvent.close, 0, at: ten + .minutes(10)),
      ] as Expected)
    app.forceQuit(&timers)
    #expect(timers.take() == [.cancel(AppSessionEvent.close, 0), .cancel(AppSessionEvent.audioEnd, 0)] as Expected)
    #expect(app.life == .forceQuit && !app.audio.isActive)
  }

  @Test("with the user's setting off a submission is counted as denied and asks for nothing")
  func settingOff() {
    var refresh = BackgroundRefresh(
      settings: BackgroundRefreshConfiguration(enabled: true), expectedOpensPerDay: 10,
      stream: DormancyTests.stream(6), setting: false)
    var timers = TimerLog(now: .zero + .hours(3))
    var log = WakeLog()
    refresh.submit(&timers, &log)
    #expect(timers.take().isEmpty && !refresh.isPending)
    #expect(log.wakes.count == 1 && log.wakes[0].hour == 3 && log.wakes[0].outcome == .deniedSettingOff)
  }

  @Test("a submission asks for a consideration past the interval; a denial asks again, a grant does not")
  func considerations() throws {
    var refresh = BackgroundRefresh(
      settings: BackgroundRefreshConfiguration(enabled: true, interval: .minutes(15)), expectedOpensPerDay: 10,
      stream: DormancyTests.stream(6), setting: true)
    var timers = TimerLog()
    var log = WakeLog()
    refresh.submit(&timers, &log)
    refresh.submit(&timers, &log)
    let submitted = timers.take()
    try #require(submitted.count == 3)
    #expect(submitted[1] == .cancel(AppRequestEvent.backgroundRefresh, 0))
    for entry in [submitted[0], submitted[2]] {
      guard case .scheduled(let kind, _, let time) = entry else { Issue.record("not a schedule: \(entry)"); continue }
      #expect(kind == AppRequestEvent.backgroundRefresh.eventKind && time >= .zero + .minutes(15))
    }
    timers.now = .zero + .hours(1)
    let denied = refresh.consider(
      forceQuit: false, dormant: false, lowPowerMode: true, stateOfCharge: 1, charging: false, &timers)
    #expect(denied == .deniedLowPowerMode && timers.take().count == 1 && refresh.isPending)
    let granted = refresh.consider(
      forceQuit: false, dormant: false, lowPowerMode: false, stateOfCharge: 1, charging: false, &timers)
    #expect(granted == .granted && timers.take().isEmpty && !refresh.isPending)
    refresh.postpone(&timers)
    #expect(timers.take().count == 1 && refresh.isPending && log.wakes.isEmpty)
  }
}
