import SimulationEngine
import Testing
import WidgetModel

@testable import ScenarioFiles

/// The keys of controls, placements, the Smart Stack, the Dynamic Island, CarPlay, Live Activity stale dates,
/// starts and caps, broadcast channels, push per configuration and `app.on_open`.
@Suite("Surface keys")
struct SurfaceKeysTests {
  static let base = """
    name: t
    widgets:
      - id: w
        kind: K
        family: systemSmall
        timeline: {policy: after, after: 30m}

    """

  static func load(_ extra: String) throws(ScenarioError) -> LoadedScenario {
    try ScenarioLoader.load(text: base + extra, file: "t.yaml")
  }

  @Test("every new key loads into the configuration; absent keys keep their defaults")
  func keysLoad() throws {
    let defaults = try Self.load("").configuration
    #expect(defaults.widgets[0].placements == [.home] && !defaults.widgets[0].pushHandler)
    #expect(defaults.user.smartStack.rule == .relevance && defaults.user.smartStack.size == 3)
    #expect(defaults.user.dynamicIslandViews.isZero && defaults.user.carplayDrives.isZero)
    #expect(defaults.system.controlBudgetPerDay == nil && defaults.system.widgetPush.reloads == .pushHandlers)
    #expect(defaults.system.liveActivities.maxConcurrentDevice == 10)
    #expect(defaults.system.liveActivities.maxBroadcastChannels == 10_000)
    #expect(defaults.app.onOpen == .reloadAll)
    let loaded = try Self.load(
      """
        - id: stacked
          kind: K2
          placement: [smart_stack, standby, carplay]
          family: systemSmall
          push_handler: true
          relevance: {profile: [0,0,0,0,0,0,1,2,3,3,3,3,3,3,3,3,3,3,3,2,1,0,0,0]}
          timeline: {policy: never}
      controls:
        - id: door
          kind: DoorLock
          placement: [control_center, lock_screen]
          value: {cpu: {dist: constant, value: 50ms}, fetch: {probability: 1, size: 2KB}}
          taps: {per_day: 3}
          data: {changes: {per_hour: 0.5}, on_change: [reload_kind, push]}
      user:
        control_center_views: {per_hour: 2}
        dynamic_island_views: {per_hour: 5, expanded_share: 0.3}
        smart_stack: {rule: fixed, size: 4, other_relevance: 2}
        carplay: {per_day: 2, drive: {dist: constant, value: 20m}, views_per_hour: 6}
      system:
        controls: {budget: {per_day: 12}}
        widget_push: {reloads: all}
        live_activities: {max_concurrent_device: 4, max_broadcast_channels: 50}
      app:
        on_open: {reload_kinds: [K, DoorLock]}
      broadcast_channels:
        - id: scores
          storage: most_recent
          updates: {interval: 5m}
          active: {from: "19:00", to: "21:00"}
      live_activities:
        - id: match
          starts: {per_day: 1}
          start: app_request
          updates: {broadcast: scores, priority: 5}
          stale_after: 15m
          relevance_score: 40
          on_cap: end_oldest
        - id: tracked
          token_rotations: {per_day: 2}
      """
    ).configuration
    let stacked = loaded.widgets[1]
    #expect(stacked.placements == [.smartStack, .standby, .carplay] && stacked.pushHandler)
    #expect(stacked.relevance[8] == 3 && stacked.relevance[0] == 0)
    let door = loaded.widgets[2]
    #expect(door.surface == .control && door.placements == [.controlCenter, .lockScreen])
    #expect(door.build.cpuSeconds.mean == 0.05 && door.build.fetchProbability == 1 && door.tapsPerDay == 3)
    #expect(door.data.pushes == [.widget] && door.pushHandler && door.dataKey == "control:DoorLock")
    #expect(loaded.kinds == ["K", "K2", "control:DoorLock"])
    #expect(
      loaded.instances.map(\.label).suffix(5) == [
        "stacked@smart_stack", "stacked@standby", "stacked@carplay", "door@control_center", "door@lock_screen",
      ])
    let user = loaded.user
    #expect(user.controlCenterViews[3] == 2 && user.dynamicIslandViews[3] == 5)
    #expect(user.dynamicIslandExpandedShare == 0.3)
    #expect(user.smartStack.rule == .fixed && user.smartStack.size == 4 && user.smartStack.otherRelevance == 2)
    #expect(abs(user.carplayDrives[5] - 2.0 / 24) < 1e-12 && user.carplayDrive.mean == 1_200)
    #expect(user.carplayViewsPerHour == 6)
    #expect(loaded.system.controlBudgetPerDay == 12 && loaded.system.widgetPush.reloads == .all)
    #expect(loaded.system.liveActivities.maxConcurrentDevice == 4)
    #expect(loaded.app.onOpen == .reloadKinds(["K", "DoorLock"]))
    let channel = loaded.broadcastChannels[0]
    #expect(channel.id == "scores" && channel.storage == .mostRecent && channel.updateInterval.mean == 300)
    #expect(channel.activeWindow?.from == TimeOfDay(hours: 19, minutes: 0))
    let match = loaded.liveActivities[0]
    #expect(match.start == .appRequest && match.broadcastChannel == 0 && match.priority == 5)
    #expect(match.staleAfter == .minutes(15) && match.relevanceScore == 40 && match.onCap == .endOldest)
    #expect(match.tokenRotationsPerDay == 0 && loaded.liveActivities[1].tokenRotationsPerDay == 2)
    let off = try Self.load("system:\n  controls: {budget: off}\napp:\n  on_open: none\n").configuration
    #expect(off.system.controlBudgetPerDay == nil && off.app.onOpen == AppOpenReload.none)
  }

  @Test(
    "bad values are errors naming the file position and key",
    arguments: [
      ("controls:\n  - {id: door, kind: D, placement: home}\n", "controls[door].placement", "expected one of"),
      ("controls:\n  - {id: w, kind: D}\n", "controls[w].id", "duplicate id 'w'"),
      ("controls:\n  - {id: app, kind: D}\n", "controls[app].id", "duplicate id 'app'"),
      ("controls:\n  - {id: d, kind: D, value: {cpuu: 1s}}\n", "controls[d].value.cpuu", "cpu"),
      (
        "controls:\n  - {id: d, kind: D, data: {on_change: push}, push_handler: false}\n",
        "controls[d].push_handler", "needs a push handler"
      ),
      ("system:\n  controls: {budget: 5}\n", "system.controls.budget", "expected off"),
      ("system:\n  widget_push: {reloads: some}\n", "system.widget_push.reloads", "push_handlers"),
      ("user:\n  smart_stack: {rule: random}\n", "user.smart_stack.rule", "relevance"),
      ("user:\n  smart_stack: {size: 0}\n", "user.smart_stack.size", "must be"),
      (
        "user:\n  dynamic_island_views: {per_hour: 2, expanded_share: 2}\n",
        "user.dynamic_island_views.expanded_share", "between 0 and 1"
      ),
      ("user:\n  carplay: {drive: 20m}\n", "user.carplay", "expected a rate"),
      ("app:\n  on_open: {reload_kinds: [Nope]}\n", "app.on_open.reload_kinds", "no widget or control has"),
      ("app:\n  on_open: sometimes\n", "app.on_open", "reload_all"),
      ("broadcast_channels:\n  - {id: s, storage: forever}\n", "broadcast_channels[s].storage", "most_recent"),
      ("broadcast_channels:\n  - {id: s}\n  - {id: s}\n", "broadcast_channels[s].id", "duplicate broadcast"),
      (
        "system:\n  live_activities: {max_broadcast_channels: 1}\nbroadcast_channels:\n  - {id: a}\n  - {id: b}\n",
        "broadcast_channels", "max_broadcast_channels"
      ),
      (
        "live_activities:\n  - {id: m, updates: {broadcast: nope}}\n", "live_activities[m].updates.broadcast",
        "no broadcast channel 'nope'"
      ),
      (
        "broadcast_channels:\n  - {id: s}\nlive_activities:\n  - {id: m, updates: {broadcast: s, interval: 1m}}\n",
        "live_activities[m].updates.interval", "from its channel"
      ),
      ("live_activities:\n  - {id: m, stale_after: 0s}\n", "live_activities[m].stale_after", "must be"),
      ("live_activities:\n  - {id: m, on_cap: queue}\n", "live_activities[m].on_cap", "end_oldest"),
      ("live_activities:\n  - {id: m, start: background}\n", "live_activities[m].start", "app_request"),
      (
        "broadcast_channels:\n  - {id: s}\nlive_activities:\n  - {id: m, updates: {broadcast: s}, token_rotations: {per_day: 1}}\n",
        "live_activities[m].token_rotations", "no push token"
      ),
      (
        "controls:\n  - {id: d, kind: D, data: {on_change: push}}\n  - {id: e, kind: D, push_handler: false}\n",
        "controls[e].push_handler", "needs a push handler"
      ),
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

  @Test("placements are checked per place: CarPlay and StandBy show systemSmall, the Lock Screen accessories")
  func placementFamilies() {
    for (family, placement, message) in [
      ("systemMedium", "[home, carplay]", "CarPlay shows systemSmall"),
      ("systemMedium", "[home, standby]", "StandBy shows systemSmall"),
      ("accessoryCircular", "[lock_screen, home]", "Lock Screen family"),
      ("systemSmall", "[home, home]", "listed twice"),
      ("systemSmall", "control_center", "expected one of"),
    ] {
      let text = """
        name: t
        widgets:
          - id: w
            kind: K
            family: \(family)
            placement: \(placement)
            timeline: {policy: never}
        """
      do {
        _ = try ScenarioLoader.load(text: text, file: "t.yaml")
        Issue.record("loaded \(placement)")
      } catch {
        #expect(error.message.contains(message), "\(error)")
        #expect(error.line == 5 || error.line == 6, "\(error)")
      }
    }
  }

  @Test("warnings: a channel nobody subscribes to, a window shorter than the interval, a probability the rule ignores")
  func warnings() throws {
    let loaded = try Self.load("broadcast_channels:\n  - {id: lonely}\n")
    #expect(loaded.warnings.contains { $0.message.contains("'lonely' has no Live Activity subscribed") })
    let short = try Self.load(
      "broadcast_channels:\n  - {id: s, updates: {interval: 2h}, active: {from: \"20:00\", to: \"21:00\"}}\n")
    #expect(short.warnings.contains { $0.keyPath == "broadcast_channels[s].active" })
    let ignored = try Self.load("user:\n  smart_stack_probability: 0.5\n")
    #expect(ignored.warnings.contains { $0.keyPath == "user.smart_stack_probability" })
    #expect(try Self.load("user:\n  smart_stack_probability: 0.5\n  smart_stack: {rule: fixed}\n").warnings.isEmpty)
  }

  @Test("widget ids and kinds may not collide with the reports' other rows or the control namespace")
  func reservedNames() {
    for (widget, message, line) in [
      ("id: app\n    kind: K", "names another row", 3), ("id: w\n    kind: control:K", "drop it", 4),
    ] {
      do {
        _ = try ScenarioLoader.load(
          text: "name: t\nwidgets:\n  - \(widget)\n    timeline: {policy: never}\n", file: "t.yaml")
        Issue.record("loaded \(widget)")
      } catch {
        #expect(error.message.contains(message), "\(error)")
        #expect(error.line == line, "\(error)")
      }
    }
  }
}
