import SimulationEngine
import Testing

@testable import Results
@testable import WidgetModel

/// The Live Activities driven directly, without a device or a replication's result: a log of what they
/// record stands in for the result.
@Suite("Live Activities through a recording of their own")
struct LiveActivitiesRecordingTests {
  /// What the activities recorded, in order.
  struct Log: ActivityRecording {
    var pushes: [(hour: Int, target: PushTarget, counter: PushCounter)] = []
    var serverPushes: [(delivered: Bool, time: SimTime)] = []
    var staleness: [(kind: Int, staleness: SimDuration)] = []
    var views: [(kind: Int, surface: ActivitySurface, pastStaleDate: Bool)] = []
    var energy = EnergyLedger(hours: 24, subjectCount: 4)

    mutating func countPush(hourIndex: Int, target: PushTarget, priority: Int, _ counter: PushCounter) {
      pushes.append((hourIndex, target, counter))
    }
    mutating func recordActivityPush(delivered: Bool, at time: SimTime, offset: SimDuration) {
      serverPushes.append((delivered, time))
    }
    mutating func recordActivityStaleness(kind: Int, _ staleness: SimDuration) {
      self.staleness.append((kind, staleness))
    }
    mutating func countActivityView(kind: Int, _ surface: ActivitySurface, pastStaleDate: Bool) {
      views.append((kind, surface, pastStaleDate))
    }
    func activitySubject(_ kind: Int) -> Int { 2 + kind }
    mutating func book(_ joules: Double, hourIndex: Int, subject: Int, component: EnergyComponent) {
      energy.book(joules, hourIndex: hourIndex, subject: subject, component: component)
    }
  }

  static func activities(_ kinds: [LiveActivityConfiguration], system: LiveActivitySystemConfiguration)
    -> LiveActivities
  {
    let stream = { (n: UInt64) in RandomStream(seed: StreamSeed(scenarioSeed: 3, stream: n)) }
    return LiveActivities(
      kinds: kinds, system: system, power: DevicePowerConfiguration(), clockOffset: .zero,
      streams: kinds.indices.map { _ in ActivityStreams(updates: stream(3), lifetime: stream(4), render: stream(5)) },
      channels: BroadcastReception(
        channels: [], schedule: BroadcastSchedule(utcMicros: [], ranges: []), offset: .zero),
      dynamicIsland: stream(6))
  }

  @Test("a push-to-start past its budget is sent, throttled and refused; within it, delivered and woken for")
  func pushToStartBudget() throws {
    let kind = LiveActivityConfiguration(id: "order", start: .pushToStart)
    var activities = Self.activities([kind], system: LiveActivitySystemConfiguration(pushToStartBudget: 1))
    var scheduler = TimerLog(now: .zero + .hours(9))
    var log = Log()
    activities.startActivity(ActivityKindID(0), appInForeground: false, &scheduler, &log)
    activities.startActivity(ActivityKindID(0), appInForeground: false, &scheduler, &log)
    #expect(log.pushes.map(\.counter) == [.sent, .delivered, .sent, .throttled])
    #expect(log.pushes.allSatisfy { $0.hour == 9 && $0.target == .activity(ActivityKindID(0)) })
    #expect(log.serverPushes.map(\.delivered) == [false, true, false])
    #expect(activities.records.map(\.rejection) == [nil, .pushBudget])
    // The delivered start woke the phone, booked against the kind's subject; the refused one cost nothing.
    #expect(log.energy.deviceMicrojoules(subject: 2) > 0)
  }

  @Test("a start the app asks for from the background is refused for visibility, with nothing sent")
  func visibility() {
    var activities = Self.activities(
      [LiveActivityConfiguration(id: "timer")], system: LiveActivitySystemConfiguration())
    var scheduler = TimerLog()
    var log = Log()
    activities.startActivity(ActivityKindID(0), appInForeground: false, &scheduler, &log)
    #expect(activities.records.map(\.rejection) == [.visibility])
    #expect(log.pushes.isEmpty && log.serverPushes.isEmpty)
  }

  @Test("a Lock Screen view records each activity on it, current and within its stale date")
  func lockScreenView() {
    let kind = LiveActivityConfiguration(id: "score", staleAfter: .minutes(30))
    var activities = Self.activities([kind, kind], system: LiveActivitySystemConfiguration())
    var scheduler = TimerLog(now: .zero + .hours(12))
    var log = Log()
    activities.startActivity(ActivityKindID(0), appInForeground: true, &scheduler, &log)
    activities.startActivity(ActivityKindID(1), appInForeground: true, &scheduler, &log)
    activities.lockScreenViewed(at: scheduler.now + .minutes(10), &log)
    #expect(log.views.map(\.kind) == [0, 1])
    #expect(log.views.allSatisfy { $0.surface == .lockScreen && !$0.pastStaleDate })
    #expect(log.staleness.map(\.staleness) == [.zero, .zero])
  }
}
