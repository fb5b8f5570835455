import SimulationEngine
import TestSupport
import Testing
import WidgetModel

@testable import ScenarioFiles

/// The capacity-planning keys: warm-up, install times, varied sleep.
@Suite("Fleet keys")
struct FleetKeysTests {
  static let base = """
    name: t
    widgets:
      - id: w
        kind: K
        family: systemSmall
        timeline: {policy: after, after: 15m}

    """

  static func load(_ extra: String, overrides: [String] = []) throws -> ScenarioConfiguration {
    try ScenarioLoader.load(
      text: base + extra, file: "t.yaml", overrides: overrides.map { try ScenarioOverride($0) }
    ).configuration
  }

  static func message(_ extra: String, overrides: [String] = []) -> String {
    do {
      _ = try load(extra, overrides: overrides)
      return "loaded"
    } catch let error as ScenarioError {
      return error.description
    } catch {
      return "\(error)"
    }
  }

  @Test("warmup_days, fleet.install_time and varied sleep times load; absent, nothing changes")
  func keysLoad() throws {
    let defaults = try Self.load("")
    #expect(defaults.warmupDays == 0 && defaults.simulatedDays == defaults.days)
    #expect(defaults.fleet.installTime == nil)
    let loaded = try Self.load(
      """
      days: 5
      warmup_days: 2
      fleet:
        devices: 10
        install_time: {dist: uniform, low: 0s, high: 24h}
        vary:
          user.sleep.from: {dist: normal, mean: 0s, sd: 45m}
          user.sleep.to: {dist: constant, value: -30m}
      """)
    #expect(loaded.warmupDays == 2 && loaded.days == 5 && loaded.simulatedDays == 7)
    #expect(loaded.fleet.installTime?.mean == 43_200)
    #expect(loaded.fleet.variations.map(\.parameter) == [.sleepFromShiftSeconds, .sleepToShiftSeconds])
    let device = FleetDevice.draw(3, of: loaded, replication: 0)
    #expect(device.configuration.user.sleep.to == TimeOfDay(hours: 6, minutes: 30))
    #expect(device.installTime > .zero && device.installTime < .days(1))
    // The shorthand overrides the key.
    #expect(try Self.load("warmup_days: 2\n", overrides: ["warmup_days=1"]).warmupDays == 1)
  }

  @Test("--set addresses one entry of fleet.vary by its whole key, replacing or adding it; errors name the override")
  func setVaryEntry() throws {
    let file = Repository.path("Scenarios/fleet-capacity.yaml")
    let loaded = try ScenarioLoader.load(
      path: file,
      overrides: [
        try ScenarioOverride("fleet.vary[user.sleep.from]={dist: normal, mean: 0s, sd: 10m}"),
        try ScenarioOverride("fleet.vary[budget.per_day.max]={dist: uniform, low: 40, high: 70}"),
      ])
    let variations = loaded.configuration.fleet.variations
    let sleep = try #require(variations.first { $0.parameter == .sleepFromShiftSeconds })
    #expect(sleep.distribution == (try Distribution.normal(mean: 0, sd: 600)), "replaced, not added twice")
    #expect(variations.filter { $0.parameter == .sleepFromShiftSeconds }.count == 1)
    #expect(variations.count == 7, "six in the file, one added")
    #expect(ScenarioOverride.parts(of: "fleet.vary[user.sleep.from].x") == ["fleet", "vary[user.sleep.from]", "x"])
    let error = #expect(throws: ScenarioError.self) {
      try ScenarioLoader.load(
        path: file, overrides: [try ScenarioOverride("fleet.vary[user.sleep.frm]={dist: normal, mean: 0s, sd: 1m}")])
    }
    #expect(error?.description.hasPrefix("--set fleet.vary[user.sleep.frm]=") == true)
    #expect(error?.description.contains("did you mean 'user.sleep.from'?") == true)
  }

  @Test("events and server.push_rate load; changes resolve to widget kinds, control kinds and activity ids")
  func eventsLoad() throws {
    let loaded = try Self.load(
      """
      controls:
        - id: door
          kind: Door
      live_activities:
        - id: order
      server:
        push_rate: {per_second: 50000}
      events:
        - id: breaking
          at: ["12:00", "18:30"]
          changes: [K]
        - id: lunch
          clock: local
          rate: {profile: [0,0,0,0,0,0,0,0,0,0,0,1,2,1,0,0,0,0,1,2,1,0,0,0]}
          share: 0.4
          widget: w
          activity: order
          changes: [order, Door]
          follow_ups: {updates: 3, spacing: {dist: exponential, mean: 10m}}
      """)
    #expect(loaded.server.pushRatePerSecond == 50_000 && loaded.server.perSecond)
    #expect(try !Self.load("server: {per_second: false}\n").server.perSecond)
    #expect(loaded.events.count == 2)
    let breaking = loaded.events[0]
    #expect(breaking.clock == .utc && breaking.share == 1 && breaking.rate == nil)
    #expect(breaking.times == [TimeOfDay(hours: 12, minutes: 0), TimeOfDay(hours: 18, minutes: 30)])
    #expect(breaking.dataKeys == ["K"] && breaking.activityKinds.isEmpty)
    let lunch = loaded.events[1]
    #expect(lunch.clock == .local && lunch.share == 0.4 && lunch.audienceWidget == 0 && lunch.audienceActivity == 0)
    #expect(lunch.rate?[12] == 2 && lunch.times.isEmpty)
    #expect(lunch.activityKinds == [0] && lunch.dataKeys == ["control:Door"])
    #expect(lunch.followUps == 3 && lunch.followUpSpacing?.mean == 600)
  }

  @Test("bad events and server keys name the key and what was expected")
  func badEvents() {
    #expect(Self.message("events: [{id: e, changes: [K]}]\n").contains("exactly one of at"))
    #expect(
      Self.message("events: [{id: e, at: [\"12:00\"], rate: {per_day: 1}, changes: [K]}]\n").contains(
        "exactly one of at"))
    #expect(Self.message("events: [{id: e, at: [\"12:00\"], changes: [Kk]}]\n").contains("did you mean 'K'"))
    #expect(Self.message("events: [{id: e, at: [\"25:00\"], changes: [K]}]\n").contains("events[e].at[0]"))
    #expect(Self.message("events: [{id: e, at: [\"12:00\"], clock: gmt, changes: [K]}]\n").contains("utc"))
    #expect(Self.message("events: [{id: e, at: [\"12:00\"], widget: x, changes: [K]}]\n").contains("no widget"))
    #expect(
      Self.message("events: [{id: e, at: [\"1:00\"], changes: [K]}, {id: e, at: [\"2:00\"], changes: [K]}]\n")
        .contains("duplicate event"))
    #expect(Self.message("server: {push_rate: {per_second: 0}}\n").contains("server.push_rate.per_second"))
    #expect(Self.message("server: {push_rate: 5}\n").contains("server.push_rate"))
  }

  @Test("data.changes as windows or bursts, and a Live Activity started on bursts")
  func burstsLoad() throws {
    let windows = try Self.load(
      """
      controls:
        - id: door
          kind: Door
          data:
            changes: {windows: [{from: "11:30", to: "13:30", per_hour: 3}, {from: "23:00", to: "01:00", per_hour: 1}]}

      """)
    let rate = try #require(windows.widgets[1].data.scheduled)
    #expect(rate.updates == 1 && !rate.isBursty && abs(rate.starts.perDay - 8) < 1e-9)
    #expect(windows.widgets[1].data.changes.isZero)
    let bursts = try Self.load(
      """
      controls:
        - id: order
          kind: Order
          data:
            changes: {bursts: {per_day: 2, updates: 4, spacing: {dist: exponential, mean: 8m}}}
      live_activities:
        - id: delivery
          starts: {on_burst: Order}

      """)
    let burst = try #require(bursts.widgets[1].data.scheduled)
    #expect(burst.isBursty && burst.updates == 4 && abs(burst.starts.perDay - 2) < 1e-9)
    #expect(burst.spacing?.mean == 480)
    #expect(bursts.liveActivities[0].burstKind == "control:Order")
    #expect(!bursts.liveActivities[0].ownUpdates && bursts.liveActivities[0].startsPerDay == 0)
  }

  @Test("bad windows, bursts and on_burst name the key")
  func badBursts() {
    #expect(
      Self.message("controls: [{id: c, kind: C, data: {changes: {windows: []}}}]\n").contains("at least one window"))
    #expect(
      Self.message(
        "controls: [{id: c, kind: C, data: {changes: {windows: [{from: \"11:00\", to: \"11:00\", per_hour: 1}]}}}]\n"
      )
      .contains("must not be empty"))
    #expect(
      Self.message("controls: [{id: c, kind: C, data: {changes: {bursts: {per_day: 1, spacing: 5m}}}}]\n")
        .contains("updates"))
    #expect(Self.message("live_activities: [{id: a, starts: {on_burst: K}}]\n").contains("changes in bursts"))
    #expect(
      Self.message(
        "controls: [{id: o, kind: O, data: {changes: {windows: [{from: \"1:00\", to: \"2:00\", per_hour: 1}]}}}]\nfleet: {devices: 2, vary: {'widgets[o].data.changes.per_hour': {dist: constant, value: 1}}}\n"
      ).contains("cannot vary"))
  }

  @Test("bad values name the key and what was expected")
  func badValues() {
    #expect(Self.message("warmup_days: -1\n").contains("warmup_days"))
    #expect(Self.message("warmup_days: 3645\n").contains("warmup_days + days"))
    #expect(Self.message("fleet: {install_time: 3}\n").contains("install_time"))
    #expect(Self.message("fleet: {vary: {user.sleep.from: {dist: normal, mean: 0, sd: 1}}}\n").contains("duration"))
  }

  static func warnings(_ extra: String, overrides: [String] = []) throws -> [String] {
    try ScenarioLoader.load(
      text: base + extra, file: "t.yaml", overrides: overrides.map { try ScenarioOverride($0) }
    ).warnings.map(\.description)
  }

  @Test("fleet.spread: defaults, none, per key, 0 pins; a pinned fleet is warned about, a single phone is not")
  func spreads() throws {
    #expect(try Self.load("").fleet.spread == .standard)
    #expect(try Self.load("fleet: {devices: 4, spread: none}\n").fleet.spread == .pinned)
    let some = try Self.load("fleet: {devices: 4, spread: {sleep: 1h, install: 0s, starts: none}}\n").fleet.spread
    #expect(some == FleetSpread(sleep: .hours(1), install: nil, starts: nil))
    #expect(try Self.load("fleet: {spread: {sleep: 20m}}\n").fleet.spread.install == .hours(24))
    #expect(try Self.warnings("fleet: {devices: 4}\n").isEmpty)
    #expect(try Self.warnings("fleet: {devices: 1, spread: none}\n").isEmpty)
    let pinned = try Self.warnings("fleet: {devices: 4, spread: none}\n")
    #expect(pinned.count == 1)
    #expect(pinned.first?.contains("t.yaml:") == true)
    #expect(
      pinned.first?.contains("fleet.spread.sleep") == true && pinned.first?.contains("fleet.install_time") == true)
    // Pinned by the shorthand: the warning follows the devices it runs with.
    #expect(try Self.warnings("fleet: {spread: none}\n", overrides: ["fleet.devices=50"]).count == 1)
    // Given by the scenario's own keys: nothing is pinned.
    let own = """
      fleet:
        devices: 4
        spread: none
        install_time: {dist: uniform, low: 0s, high: 24h}
        vary: {user.sleep.from: {dist: normal, mean: 0s, sd: 45m}, user.sleep.to: {dist: normal, mean: 0s, sd: 45m}}

      """
    #expect(try Self.warnings(own).isEmpty)
    #expect(Self.message("fleet: {spread: sometimes}\n").contains("fleet.spread"))
    #expect(Self.message("fleet: {spread: {sleep: 3}}\n").contains("fleet.spread.sleep"))
    #expect(Self.message("fleet: {spread: {sleeps: 1h}}\n").contains("sleeps"))
    #expect(Self.message("fleet: {spread: {sleep: -1h}}\n").contains("fleet.spread.sleep"))
  }

  @Test("server.push_rate: 10,000 a second by default, none sends every push at once, in the file or by --set")
  func pushRate() throws {
    #expect(try Self.load("").server.pushRatePerSecond == 10_000)
    #expect(try Self.load("server: {push_rate: none}\n").server.pushRatePerSecond == nil)
    #expect(try Self.load("", overrides: ["server.push_rate=none"]).server.pushRatePerSecond == nil)
    #expect(try Self.load("", overrides: ["server.push_rate.per_second=300"]).server.pushRatePerSecond == 300)
    #expect(Self.message("server: {push_rate: never}\n").contains("server.push_rate"))
  }
}
