import Fleets
import SimulationEngine
import Testing

@testable import Results
@testable import WidgetModel

/// Fleet-wide events: the same moment on every device, the server's push fan-out, per-second load.
@Suite("Fleet-wide events")
struct FleetEventTests {
  /// `devices` phones on UTC with a push widget of kind `News` and one event at 12:00 UTC changing it.
  static func breaking(devices: Int, pushRate: Double?) -> ScenarioConfiguration {
    var widget = ModelFixtures.widget("news", kind: "News", policy: .never)
    widget.data.pushes.insert(.widget)
    widget.pushHandler = true
    var configuration = ModelFixtures.quiet([widget], days: 1)
    configuration.system.widgetPush.delay = try! .constant(0)
    configuration.system.widgetPush.waitWhileAsleep = false
    configuration.fleet = FleetConfiguration(devices: devices, represents: Double(devices))
    configuration.fleet.spread = .pinned  // every widget on every phone from midnight: the event's fetches alone
    configuration.events = [
      FleetEventConfiguration(id: "breaking", times: [TimeOfDay(hours: 12, minutes: 0)], dataKeys: ["News"])
    ]
    configuration.server.pushRatePerSecond = pushRate
    return configuration
  }

  @Test("1,000 devices, one event at 12:00 UTC at 100 pushes/s: 100 pushes in each of 10 seconds, fetches after")
  func fanOut() {
    let configuration = FleetEventTests.breaking(devices: 1_000, pushRate: 100)
    let result = FleetRunner.run(configuration, replication: 0, jobs: 2).result
    let seconds = result.serverLoad.seconds
    let noon = 12 * 3_600
    // Closed form: device d is sent its push d / 100 s after noon, so every second of the ten has 100.
    for second in noon..<(noon + 10) {
      #expect(seconds.requests(second: second, stream: .source(.widgetPush)) == 100)
    }
    let pushes = (0..<seconds.secondCount).reduce(0) {
      $0 + Int(seconds.requests(second: $1, stream: .source(.widgetPush)))
    }
    #expect(pushes == 1_000)
    // Each delivered push reloads the widget, whose build fetches: every fetch of the hour comes after the
    // pushes began, and they follow the pushes second by second.
    func fetches(_ range: Range<Int>) -> Int {
      range.reduce(0) { $0 + Int(seconds.requests(second: $1, stream: .source(.widgetFetch))) }
    }
    #expect(fetches((noon - 1_800)..<noon) == 0)
    #expect(fetches(noon..<(noon + 15)) == result.total(instance: 0, cause: .push))
    #expect(result.total(instance: 0, cause: .push) == 1_000)
    for second in noon..<(noon + 10) {
      #expect(fetches(noon..<(second + 2)) >= 100 * (second - noon + 1))
    }
    #expect(result.pushTotal(target: 0, counter: .sent) == 1_000)
    // The last device's push left the server 9.99 s after the event.
    let delivery = result.eventDelivery[0]
    #expect(delivery.sends == 1_000)
    #expect(abs(delivery.lastSendSeconds - 9.99) < 1e-6)
    #expect(delivery.deliveries == 1_000)
    #expect(delivery.lastDeliverySeconds >= 9.99 && delivery.lastDeliverySeconds < 11)
  }

  @Test("without a push rate every push leaves at the event's second; jobs do not change anything")
  func allAtOnce() {
    let configuration = FleetEventTests.breaking(devices: 200, pushRate: nil)
    let one = FleetRunner.run(configuration, replication: 0, jobs: 1).result
    let two = FleetRunner.run(configuration, replication: 0, jobs: 2).result
    #expect(one.serverLoad.seconds.requests(second: 12 * 3_600, stream: .source(.widgetPush)) == 200)
    for second in stride(from: 0, to: 86_400, by: 7) {
      for stream in ServerStream.allCases {
        #expect(
          one.serverLoad.seconds.requests(second: second, stream: stream)
            == two.serverLoad.seconds.requests(second: second, stream: stream))
      }
    }
    #expect(one.fingerprint == two.fingerprint)
    // server.per_second: false keeps no seconds and no provisioning figures; the rest is the same.
    var without = configuration
    without.server.perSecond = false
    let lean = FleetRunner.run(without, replication: 0, jobs: 2).result
    #expect(lean.serverLoad.seconds.isEmpty && lean.provisioning.isEmpty)
    #expect(lean.fingerprint == one.fingerprint && lean.serverLoad.fetches == one.serverLoad.fetches)
  }

  @Test("a local-clock event reaches each time zone at its own noon; share picks part of the fleet")
  func localClockAndShare() {
    var configuration = FleetEventTests.breaking(devices: 400, pushRate: nil)
    configuration.events[0].clock = .local
    configuration.events[0].share = 0.25
    configuration.fleet.clockOffset = try! .empirical(values: [-5 * 3_600, -8 * 3_600], weights: nil)
    let result = FleetRunner.run(configuration, replication: 0, jobs: 2).result
    let seconds = result.serverLoad.seconds
    // Local noon at UTC-5 is 17:00 UTC, at UTC-8 20:00 UTC.
    let east = Int(seconds.requests(second: 17 * 3_600, stream: .source(.widgetPush)))
    let west = Int(seconds.requests(second: 20 * 3_600, stream: .source(.widgetPush)))
    #expect(east > 0 && west > 0)
    // 400 x 0.25 = 100 expected; binomial sd = sqrt(400 x 0.25 x 0.75) = 8.7: within 4 sd.
    #expect(abs(east + west - 100) <= 35)
    #expect(result.pushTotal(target: 0, counter: .sent) == east + west)
  }

  @Test("follow-ups and a rate are drawn once for the fleet: every device sees the same times")
  func scheduleOnceForFleet() {
    var configuration = FleetEventTests.breaking(devices: 2, pushRate: nil)
    configuration.events[0].times = []
    configuration.events[0].rate = HourlyRate(perHour: 1)
    configuration.events[0].followUps = 3
    configuration.events[0].followUpSpacing = try! .constant(600)
    let schedule = FleetEventSchedule(configuration, replication: 0)
    let times = schedule.micros[schedule.ranges[0]]
    #expect(times.count > 40)
    #expect(FleetEventSchedule(configuration, replication: 0).micros == schedule.micros)
    #expect(FleetEventSchedule(configuration, replication: 1).micros != schedule.micros)
  }

  @Test("an event's follow-ups make a burst: views between an occurrence and its last follow-up count apart")
  func eventBursts() {
    var configuration = FleetEventTests.breaking(devices: 1, pushRate: nil)
    configuration.days = 20
    configuration.user.homeScreenViews = HourlyRate(perHour: 30)
    configuration.events[0].times = [TimeOfDay(hours: 9, minutes: 0), TimeOfDay(hours: 18, minutes: 0)]
    configuration.events[0].followUps = 2
    configuration.events[0].followUpSpacing = try! .constant(1_800)
    let result = ScenarioRunner.runReplication(configuration, replication: 0)
    // Two hours of bursts a day (09:00-10:00 and 18:00-19:00) among about 16.5 awake hours of views.
    let share = Double(result.burstStaleness[0].views) / Double(result.staleness[0].views)
    #expect(share > 0.08 && share < 0.16, "share of views in bursts \(share)")
    // Only events with an audience activity running reach a device: none runs here, so nothing is sent.
    configuration.events[0].audienceActivity = 0
    configuration.liveActivities = [LiveActivityConfiguration(id: "order")]
    configuration.liveActivities[0].startsPerDay = 0
    let none = ScenarioRunner.runReplication(configuration, replication: 0)
    #expect(none.pushTotal(target: 0, counter: .sent) == 0 && none.burstStaleness[0].views == 0)
  }
}
