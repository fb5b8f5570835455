import SimulationEngine
import Testing
import WidgetModel

@testable import ScenarioFiles

/// The host app's keys: `app.*`, `system.silent_push`, the reload delay and ignore window, the widget-open
/// share, and `on_change: silent_push`.
@Suite("App keys")
struct AppKeysTests {
  static func load(_ extra: String, onChange: String = "reload_kind", fetch: String = "1.0", opens: String = "4")
    throws(ScenarioError) -> LoadedScenario
  {
    let text = """
      name: t
      user:
        app_opens: {per_day: \(opens)}
      widgets:
        - id: w
          kind: K
          timeline: {policy: after, after: 30m}
          build:
            fetch: {probability: \(fetch)}
          data:
            changes: {per_hour: 2}
            on_change: \(onChange)

      """
    return try ScenarioLoader.load(text: text + extra, file: "t.yaml")
  }

  @Test("every push kind that launches the app reads its caps from its own section, the others keep theirs")
  func launchingPushCaps() throws {
    for (index, kind) in PushKind.launching.enumerated() {
      let section = kind.row.capsSection.description
      let loaded = try Self.load("system:\n  \(section): {per_hour: \(index + 7), per_day: 70}\n").configuration
      for other in PushKind.allCases {
        let caps = loaded.system.launchingPush(other)
        #expect((caps != nil) == (other.row.launches != nil), "\(other)")
        let perHour = other == kind ? Double(index + 7) : LaunchingPushConfiguration().perHour
        #expect(caps.map { $0.perHour == perHour } != false, "\(section): \(other)")
      }
      #expect(loaded.system.launchingPush(kind)?.perDay == 70)
    }
  }

  @Test("every app key loads into the configuration; absent keys keep their defaults")
  func keysLoad() throws {
    let defaults = try Self.load("").configuration
    #expect(!defaults.app.alwaysRunning && !defaults.app.backgroundRefresh.enabled)
    #expect(defaults.app.forceQuitsPerDay == 0 && defaults.app.backgroundReloads == .budgeted)
    #expect(defaults.system.silentPush.perHour == 3 && defaults.user.widgetOpenShare == 0.25)
    let loaded = try Self.load(
      """
      app:
        always_running: true
        fetch: {size: {dist: constant, value: 10KB}, cpu: {dist: constant, value: 0.5s}}
        background_refresh: {interval: 20m, active: {from: "09:30", to: "16:00"}, enabled_probability: 0.7, delay: 30m, reference_opens: 5, per_day: 12, low_battery: 0.1}
        force_quit: {per_day: 0.5}
        background_reloads: exempt
        background_time_limit: 20s
      system:
        silent_push: {per_hour: 2, per_day: 20, delay: {dist: constant, value: 1m}, loss: 0.15}
        app_reload_delay: {dist: constant, value: 3s}
        ignore_reloads_after_widget_open: 10s
      """
    ).configuration
    let app = loaded.app
    #expect(app.alwaysRunning && app.fetch.bytes.mean == 10_000 && app.fetch.cpuSeconds.mean == 0.5)
    let refresh = app.backgroundRefresh
    #expect(refresh.enabled && refresh.interval == .minutes(20) && refresh.enabledProbability == 0.7)
    #expect(refresh.activeWindow?.from == TimeOfDay(hours: 9, minutes: 30))
    #expect(refresh.delay == .minutes(30) && refresh.referenceOpensPerDay == 5 && refresh.perDay == 12)
    #expect(refresh.lowBattery == 0.1)
    #expect(app.forceQuitsPerDay == 0.5 && app.backgroundReloads == .exempt && app.backgroundTimeLimit == .seconds(20))
    #expect(loaded.system.silentPush.perHour == 2 && loaded.system.silentPush.perDay == 20)
    #expect(loaded.system.silentPush.loss == 0.15)
    #expect(loaded.system.silentPush.delay.mean == 60 && loaded.system.appReloadDelay.mean == 3)
    #expect(loaded.system.ignoreReloadsAfterWidgetOpen == .seconds(10))
    let off = try Self.load("app:\n  background_refresh: off\n").configuration
    #expect(!off.app.backgroundRefresh.enabled)
  }

  @Test(
    "on_change: silent_push alone means the woken app reloads the kind; with reload_all it reloads everything",
    arguments: [
      ("silent_push", DataChangeAction.reloadKind, true, false),
      ("[silent_push, reload_all]", .reloadAll, true, false),
      ("[push, silent_push]", .reloadKind, true, true),
      ("push", DataChangeAction.none, false, true),
    ])
  func silentPushAction(_ onChange: String, _ action: DataChangeAction, _ silent: Bool, _ push: Bool) throws {
    let data = try Self.load("", onChange: onChange).configuration.widgets[0].data
    #expect(data.onChange == action && data.pushes.contains(.silent) == silent && data.pushes.contains(.widget) == push)
  }

  @Test("every push kind's word in on_change sends that push alone", arguments: PushKind.allCases)
  func pushKindWord(_ kind: PushKind) throws {
    let data = try Self.load("", onChange: kind.row.scenarioKey.description).configuration.widgets[0].data
    #expect(data.pushes == [kind])
  }

  @Test(
    "bad app values are errors naming the key",
    arguments: [
      ("app:\n  background_refresh: {interval: 0s}\n", "app.background_refresh.interval", "must be"),
      ("app:\n  background_reloads: sometimes\n", "app.background_reloads", "expected budgeted or exempt"),
      ("app:\n  fetchh: {}\n", "app.fetchh", "fetch"),
      ("app:\n  background_refresh: on\n", "app.background_refresh", "expected off, or a mapping"),
      ("app:\n  force_quit: {per_day: -1}\n", "app.force_quit.per_day", "must be"),
      ("system:\n  silent_push: {per_hour: many}\n", "system.silent_push.per_hour", "number"),
      ("system:\n  silent_push: {loss: 1}\n", "system.silent_push.loss", "0.999"),
    ])
  func errors(_ extra: String, _ keyPath: String, _ message: String) {
    do {
      _ = try Self.load(extra)
      Issue.record("loaded \(extra)")
    } catch {
      #expect(error.keyPath == keyPath, "\(error)")
      #expect(error.message.contains(message), "\(error)")
      #expect(error.line != nil, "\(error)")
    }
  }

  @Test("validate warns about a WidgetKit push to a widget that does not fetch, and about an app that never runs")
  func warnings() throws {
    #expect(try Self.load("").warnings.isEmpty)
    let push = try Self.load("", onChange: "push", fetch: "0")
    #expect(push.warnings.count == 1)
    #expect(push.warnings.first?.keyPath == "widgets[w].data")
    #expect(push.warnings.first?.message.contains("without waking the app") == true)
    let never = try Self.load("", opens: "0")
    #expect(never.warnings.count == 1)
    #expect(never.warnings.first?.message.contains("the app never runs") == true)
    #expect(try Self.load("app:\n  background_refresh: {interval: 15m}\n", opens: "0").warnings.isEmpty)
    #expect(try Self.load("", onChange: "silent_push", opens: "0").warnings.isEmpty)
    // A silent push for one kind launches the app, which then learns of every kind's changes.
    let second =
      "  - id: v\n    kind: Other\n    timeline: {policy: never}\n    data: {changes: {per_hour: 1}, on_change: reload_kind}\n"
    #expect(try Self.load(second, onChange: "silent_push", opens: "0").warnings.isEmpty)
    // ... unless the device accepts no silent push at all.
    let closed = try Self.load("system:\n  silent_push: {per_hour: 0}\n", onChange: "silent_push", opens: "0")
    #expect(closed.warnings.first?.message.contains("the app never runs") == true)
  }

  @Test(
    "app.dormant_after: a duration, or none; the default is 3 days",
    arguments: [
      ("", SimDuration?.some(.days(3))), ("app:\n  dormant_after: 36h\n", .hours(36)),
      ("app:\n  dormant_after: 7d\n", .days(7)), ("app:\n  dormant_after: none\n", nil),
    ])
  func dormantAfter(_ extra: String, _ expected: SimDuration?) throws {
    #expect(try Self.load(extra).configuration.app.dormantAfter == expected)
  }

  @Test(
    "a bad app.dormant_after is an error at its line and column",
    arguments: [("soon", "expected a duration"), ("0s", "must be"), ("-1d", "must be"), ("{days: 3}", "expected")])
  func dormantAfterErrors(_ value: String, _ message: String) {
    do {
      _ = try Self.load("app:\n  dormant_after: \(value)\n")
      Issue.record("loaded dormant_after: \(value)")
    } catch {
      #expect(error.keyPath == "app.dormant_after", "\(error)")
      #expect(error.message.contains(message) && error.message.contains("none"), "\(error)")
      // Line 14 (the 12 lines of the document, then "app:"), column 18 (after "  dormant_after: ").
      #expect(error.line == 14 && error.column == 18, "\(error)")
    }
  }

  @Test("validate and run warn when a widget's data comes only from wakes of an app the user never opens")
  func dormantWakesWarning() throws {
    let silent = try Self.load("", onChange: "silent_push", fetch: "0", opens: "0")
    #expect(silent.warnings.count == 1)
    let warning = try #require(silent.warnings.first)
    #expect(warning.keyPath == "widgets[w]")
    #expect(warning.line == 5 && warning.column == 5, "\(warning)")
    #expect(warning.message.contains("widget 'w'") && warning.message.contains("user.app_opens.per_day"))
    #expect(warning.message.contains("app.dormant_after") && warning.message.contains("3d"))
    let refresh = try Self.load("app:\n  background_refresh: {interval: 15m}\n", fetch: "0", opens: "0")
    #expect(refresh.warnings.count == 1 && refresh.warnings.first?.keyPath == "widgets[w]")
    let off = try Self.load("app:\n  dormant_after: none\n", onChange: "silent_push", fetch: "0", opens: "0")
    #expect(off.warnings.first?.message.contains("app.dormant_after: none") == true)
    // Opened by the user, a widget that fetches, a WidgetKit push, an audio session: no warning.
    #expect(try Self.load("", onChange: "silent_push", fetch: "0", opens: "1").warnings.isEmpty)
    #expect(try Self.load("", onChange: "silent_push", fetch: "0.5", opens: "0").warnings.isEmpty)
    let pushed = try Self.load("", onChange: "[push, silent_push]", fetch: "0", opens: "0")
    #expect(pushed.warnings.allSatisfy { !$0.message.contains("dormant_after") })
    let audio = try Self.load("", onChange: "silent_push", fetch: "0", opens: "0}\n  audio_sessions: {per_day: 1")
    #expect(audio.warnings.isEmpty)
  }

  @Test("app.event_updates: next_fetch (the default) or live; anything else is refused with did-you-mean")
  func eventUpdates() throws {
    #expect(try Self.load("").configuration.app.eventUpdates == .nextFetch)
    for (written, expected) in [("live", EventUpdates.live), ("next_fetch", .nextFetch)] {
      #expect(try Self.load("app: {event_updates: \(written)}\n").configuration.app.eventUpdates == expected)
    }
    let error = #expect(throws: ScenarioError.self) { try Self.load("app:\n  event_updates: nextfetch\n") }
    // Line 14 (the 12 lines of the document, then "app:"), column 18 (after "  event_updates: ").
    #expect(
      error?.description
        == "t.yaml:14:18: app.event_updates: expected one of live, next_fetch, got \"nextfetch\" "
        + "(did you mean 'next_fetch'?)")
    let set = #expect(throws: ScenarioError.self) {
      try ScenarioLoader.load(
        text: "name: t\nwidgets: [{id: w, kind: K, timeline: {policy: never}}]\n", file: "t.yaml",
        overrides: [try ScenarioOverride("app.event_updates=lve")])
    }
    #expect(set?.description.hasPrefix("--set app.event_updates=lve: app.event_updates: expected one of") == true)
    #expect(set?.description.hasSuffix("(did you mean 'live'?)") == true, "\(String(describing: set))")
  }
}
