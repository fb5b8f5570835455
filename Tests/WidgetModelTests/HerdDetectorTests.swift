import Fleets
import SimulationEngine
import Testing

@testable import Results
@testable import WidgetModel

/// The herd rule on per-second loads made by hand, and the server's pacing of pushes sent at one moment.
@Suite("Herd detector and push pacing")
struct HerdDetectorTests {
  /// A fleet of `devices` phones on UTC, one widget, for a day.
  static func fleet(_ devices: Int) -> ScenarioConfiguration {
    var configuration = ScenarioConfiguration(
      name: "herd", days: 1, widgets: [ModelFixtures.widget("news", policy: .after(.minutes(15)))])
    configuration.fleet = FleetConfiguration(devices: devices)
    return configuration
  }

  /// A day of per-second load: `background` widget fetches spread one a second from 01:00, then `herd`
  /// fetches in the second `second`.
  static func load(background: Int, herd: Int, second: Int) -> ServerSeconds {
    var seconds = ServerSeconds(days: 1)
    for index in 0..<background {
      seconds.record(.widgetFetch, bytes: 1, at: .zero + .seconds(Int64(3_600 + index * 7)), offset: .zero)
    }
    for _ in 0..<herd { seconds.record(.widgetFetch, bytes: 1, at: .zero + .seconds(Int64(second)), offset: .zero) }
    return seconds
  }

  @Test("1% of the fleet in one second of one source is a herd; fewer, or a busy source's ordinary second, is not")
  func threshold() {
    let rule = HerdRule(HerdDetectorTests.fleet(2_000), replication: 0)
    #expect(rule.floor == 20)
    // 20 phones at 13:17:05 with nothing named then: a herd nothing explains.
    let second = 13 * 3_600 + 17 * 60 + 5
    let herds = HerdDetectorTests.load(background: 5_000, herd: 20, second: second).herds(rule)
    #expect(herds == [Herd(source: .widgetFetch, second: second, phones: 20, share: 0.01, explanation: nil)])
    // 19 phones: under 1% of the fleet.
    #expect(HerdDetectorTests.load(background: 5_000, herd: 19, second: second).herds(rule).isEmpty)
    // A small fleet: at least five phones.
    let small = HerdRule(HerdDetectorTests.fleet(60), replication: 0)
    #expect(small.floor == 5)
    #expect(HerdDetectorTests.load(background: 0, herd: 4, second: second).herds(small).isEmpty)
    #expect(HerdDetectorTests.load(background: 0, herd: 5, second: second).herds(small).count == 1)
    // A source busy all day: 80,000 phones' fetches a day (about one a second): 20 in a second is within four
    // times its mean plus six Poisson standard deviations.
    var busy = ServerSeconds(days: 1)
    for index in 0..<86_400 { busy.record(.widgetFetch, bytes: 1, at: .zero + .seconds(Int64(index)), offset: .zero) }
    for _ in 0..<18 { busy.record(.widgetFetch, bytes: 1, at: .zero + .seconds(40_000), offset: .zero) }
    #expect(busy.herds(rule).isEmpty)
    // A single phone's run has no herds.
    #expect(
      HerdDetectorTests.load(background: 0, herd: 50, second: second).herds(
        HerdRule(
          HerdDetectorTests.fleet(1), replication: 0)
      ).isEmpty)
  }

  @Test("a herd counts phones: one phone's widgets reloading in the same second are one phone, not five")
  func distinctPhones() {
    let rule = HerdRule(HerdDetectorTests.fleet(3), replication: 0)
    #expect(rule.floor == 5)
    let second = 13 * 3_600
    // Three phones, each with five widgets fetching together: 15 requests in the second, 3 phones.
    var load = ServerLoad(days: 1, perSecond: true)
    for _ in 0..<3 {
      load.startDevice()
      for widget in 0..<5 {
        load.recordFetch(
          .widgetFetch, bytes: 1, at: .zero + .seconds(Int64(second)) + .milliseconds(Int64(widget)), offset: .zero)
      }
      load.applyPending()
    }
    #expect(load.seconds.requests(second: second, source: .widgetFetch) == 15)
    #expect(load.seconds.phones(second: second, source: .widgetFetch) == 3)
    #expect(load.seconds.herds(rule).isEmpty)
    // Five phones with one fetch each in that second are five phones: a herd for a 60-phone fleet.
    var apart = ServerLoad(days: 1, perSecond: true)
    for _ in 0..<5 {
      apart.startDevice()
      apart.recordFetch(.widgetFetch, bytes: 1, at: .zero + .seconds(Int64(second)), offset: .zero)
      apart.applyPending()
    }
    #expect(apart.seconds.phones(second: second, source: .widgetFetch) == 5)
    #expect(apart.seconds.herds(HerdRule(HerdDetectorTests.fleet(60), replication: 0)).first?.phones == 5)
    // The same phone in the next second again is a phone of that second.
    var next = ServerLoad(days: 1, perSecond: true)
    next.startDevice()
    next.recordFetch(.widgetFetch, bytes: 1, at: .zero + .seconds(Int64(second)), offset: .zero)
    next.recordFetch(.widgetFetch, bytes: 1, at: .zero + .seconds(Int64(second + 1)), offset: .zero)
    next.applyPending()
    #expect(next.seconds.phones(second: second + 1, source: .widgetFetch) == 1)
  }

  @Test("a herd at a time the scenario names is explained by it; the largest unexplained one is reported first")
  func explanations() {
    var configuration = HerdDetectorTests.fleet(100)
    configuration.widgets[0].timeline.times = [TimeOfDay(hours: 9, minutes: 30)]
    let rule = HerdRule(configuration, replication: 0)
    #expect(rule.explanation(second: 9 * 3_600 + 30 * 60 + 42) == "widgets[news].timeline.at 09:30")
    #expect(rule.explanation(second: 9 * 3_600 + 30 * 60 + HerdRule.slack + 1) == nil)
    #expect(rule.explanation(second: 9 * 3_600 + 29 * 60) == nil)
    // A herd at 09:30:10 is explained; with a bigger one at 15:00 that nothing explains, that one is reported.
    var seconds = HerdDetectorTests.load(background: 0, herd: 40, second: 9 * 3_600 + 30 * 60 + 10)
    #expect(seconds.herds(rule).first?.explanation == "widgets[news].timeline.at 09:30")
    for _ in 0..<10 { seconds.record(.widgetFetch, bytes: 1, at: .zero + .hours(15), offset: .zero) }
    #expect(seconds.herds(rule).first?.second == 15 * 3_600)
    #expect(seconds.herds(rule).first?.explanation == nil)
    // Local times line up on each of a finite list of time zones; a continuous spread leaves none in step.
    configuration.fleet.clockOffset = try! .empirical(values: [-5 * 3_600, -8 * 3_600])
    let zones = HerdRule(configuration, replication: 0)
    #expect(zones.explanation(second: 14 * 3_600 + 30 * 60 + 5) == "widgets[news].timeline.at 09:30")
    #expect(zones.explanation(second: 17 * 3_600 + 30 * 60 + 5) == "widgets[news].timeline.at 09:30")
    #expect(zones.explanation(second: 9 * 3_600 + 30 * 60 + 5) == nil)
    configuration.fleet.clockOffset = try! .uniform(low: -8 * 3_600, high: -5 * 3_600)
    #expect(HerdRule(configuration, replication: 0).explanation(second: 14 * 3_600 + 30 * 60 + 5) == nil)
  }

  @Test("daily windows cross midnight; a long fan-out explains what follows it, and nothing after it ends")
  func windowsAcrossMidnightAndLongFanOuts() {
    var configuration = HerdDetectorTests.fleet(100)
    configuration.widgets[0].timeline.times = [TimeOfDay(hours: 23, minutes: 58)]
    let rule = HerdRule(configuration, replication: 0)
    // 23:58 + 10 minutes reaches 00:08 of the next day, on every day of the run.
    #expect(rule.explanation(second: 86_400 + 5 * 60) == "widgets[news].timeline.at 23:58")
    #expect(rule.explanation(second: 3 * 86_400 + 5 * 60) == "widgets[news].timeline.at 23:58")
    #expect(rule.explanation(second: 86_400 + 9 * 60) == nil)
    // A push-to-start to 2 million phones at 1,000 a second: 2,000 s of fan-out, then the slack.
    var kickoff = HerdDetectorTests.kickoff(devices: 100, represents: 2_000_000, rate: 1_000)
    kickoff.widgets[0].timeline.times = [TimeOfDay(hours: 19, minutes: 0)]
    let long = HerdRule(kickoff, replication: 0)
    let start = 18 * 3_600 + 55 * 60
    #expect(long.explanation(second: start + 1_999)?.hasPrefix("live_activities[game]") == true)
    #expect(long.explanation(second: start + 2_000 + HerdRule.slack) != nil)
    #expect(long.explanation(second: start + 2_000 + HerdRule.slack + 1) == nil)
    // Inside both windows: the latest-starting one names it.
    #expect(long.explanation(second: 19 * 3_600 + 30) == "widgets[news].timeline.at 19:00")
  }

  /// `devices` phones standing for `represents`, each sent a push-to-start at 18:55 UTC.
  static func kickoff(devices: Int, represents: Double, rate: Double?) -> ScenarioConfiguration {
    var configuration = HerdDetectorTests.fleet(devices)
    configuration.fleet.represents = represents
    configuration.fleet.spread = .pinned
    configuration.server.pushRatePerSecond = rate
    // No update in the day: the only activity pushes are the starts.
    var game = LiveActivityConfiguration(
      id: "game", startsPerDay: 0, startsAt: [TimeOfDay(hours: 18, minutes: 55)], start: .pushToStart)
    game.updateInterval = try! .constant(12 * 3_600)
    configuration.liveActivities = [game]
    return configuration
  }

  @Test("push-to-start at a fixed time leaves at server.push_rate: the sent peak is the rate, explained by the fan-out")
  func pushToStartIsPaced() {
    // 200 phones for 2 million: 10,000 real phones each; at 20,000 pushes a second, two simulated phones'
    // pushes a second for 100 seconds.
    let paced = FleetRunner.run(
      HerdDetectorTests.kickoff(devices: 200, represents: 2_000_000, rate: 20_000), replication: 0, jobs: 2
    ).result
    let sent = paced.provisioning[ServerDirection.sent.rawValue]
    #expect(sent.peakPerSecond == 20_000)
    let kickoff = 18 * 3_600 + 55 * 60
    #expect(sent.peakSecond == kickoff)
    let perSecond = (kickoff..<(kickoff + 100)).map {
      paced.serverLoad.seconds.requests(second: $0, source: .activityPush)
    }
    #expect(perSecond.allSatisfy { $0 == 2 }, "\(perSecond)")
    #expect(paced.serverLoad.seconds.requests(second: kickoff + 100, source: .activityPush) == 0)
    #expect(paced.perSecond.peaks[1].explanation == "live_activities[game].starts.at (push-to-start fan-out) 18:55")
    #expect(paced.perSecond.herds.allSatisfy { $0.explanation != nil }, "\(paced.perSecond.herds)")
    // Without a rate every push leaves in one second: the invented peak of the whole fleet.
    let unpaced = FleetRunner.run(
      HerdDetectorTests.kickoff(devices: 200, represents: 2_000_000, rate: nil), replication: 0, jobs: 2
    ).result
    #expect(unpaced.provisioning[ServerDirection.sent.rawValue].peakPerSecond == 2_000_000)
  }

  @Test("what the servers receive and what they send are kept apart: no figure adds both")
  func receivedAndSent() {
    var seconds = ServerSeconds(days: 1)
    for _ in 0..<3 { seconds.record(.widgetFetch, bytes: 10, at: .zero + .seconds(100), offset: .zero) }
    seconds.record(.tokenRegistration, bytes: 0, at: .zero + .seconds(100), offset: .zero)
    for _ in 0..<5 { seconds.record(.widgetPush, bytes: 0, at: .zero + .seconds(100), offset: .zero) }
    seconds.record(.broadcast, bytes: 0, at: .zero + .seconds(200), offset: .zero)
    let figures = seconds.provisioning(scale: 10)
    #expect(figures[0].stream == "received" && figures[0].peakPerSecond == 40 && figures[0].peakSecond == 100)
    #expect(figures[1].stream == "sent" && figures[1].peakPerSecond == 50 && figures[1].peakSecond == 100)
    #expect(figures[0].peakBytesPerSecond == 300)
    let sources = seconds.sources(second: 100, direction: .received, scale: 10)
    #expect(sources.map(\.source) == [.widgetFetch, .tokenRegistration])
    #expect(sources.map(\.requests) == [30, 10])
    // A broadcast is one request for the fleet, never scaled.
    #expect(seconds.sources(second: 200, direction: .sent, scale: 10).map(\.requests) == [1])
  }
}
