import TestSupport
import Testing

@testable import ScenarioFiles

@Suite("Malformed scenarios")
struct MalformedScenarioTests {
  /// Every fixture under Fixtures/malformed with the error it must produce: line, column (1-based, nil
  /// when the problem is the whole file), key path, and the start of the message.
  static let expectations: [(file: String, line: Int?, column: Int?, keyPath: String, message: String)] = [
    ("tag-binary.yaml", 2, 7, "", "YAML tag 'tag:yaml.org,2002:binary' is not supported"),
    ("complex-key-explicit.yaml", 2, 1, "", "a complex YAML key (a list or mapping used as a key)"),
    ("complex-key-flow.yaml", 2, 10, "", "a complex YAML key (a list or mapping used as a key)"),
    ("tag-local.yaml", 4, 11, "", "YAML tag '!local' is not supported"),
    (
      "network-default-and-probability.yaml", 3, 46, "device.network.wifi_probability",
      "give either default (one network all day) or wifi_probability"
    ),
    ("network-empty-window.yaml", 5, 29, "device.network.schedule[0].to", "the window must not be empty"),
    ("duration-hex.yaml", 5, 38, "widgets[w].timeline.after", "expected a duration with a unit"),
    (
      "align-swapped-letters.yaml", 6, 43, "widgets[headlines].timeline.aling",
      "unknown key 'aling' (did you mean 'align'?)"
    ),
    (
      "push-rate-per-minute.yaml", 8, 27, "server.push_rate.per_minute",
      "push_rate is written per second, not per_minute: {per_second: 10000}"
    ),
    (
      "duration-below-resolution.yaml", 5, 38, "widgets[w].timeline.after",
      "must be at least 1us (the simulation clock's resolution)"
    ),
    (
      "activity-duplicate-id.yaml", 8, 9, "live_activities[headlines].id",
      "duplicate id 'headlines': widgets, controls, Live Activities"
    ),
    (
      "activity-priority.yaml", 9, 39, "live_activities[delivery].updates.priority",
      "APNs priority is 10 (immediate, budgeted) or 5"
    ),
    (
      "on-change-two-reloads.yaml", 7, 47, "widgets[headlines].data.on_change",
      "give at most one of reload_kind and reload_all"
    ),
    (
      "throughput-no-unit.yaml", 9, 24, "device.radios.wifi.throughput",
      "expected a positive data rate with a unit (bps, kbps"
    ),
    (
      "after-missing.yaml", 6, 24, "widgets[headlines].timeline.policy",
      "policy after needs 'after' (the earliest time of "
    ),
    (
      "fleet-vary-unknown.yaml", 10, 5, "fleet.vary.user.home_screen_view.per_hour",
      "cannot vary 'user.home_screen_view.per_hour' (did you mean 'user.home_screen_views.per_hour'?)"
    ),
    ("bad-time-of-day.yaml", 8, 17, "user.sleep.from", "expected a time of day as \"HH:MM\" (24-hour clock),"),
    ("binary-garbage.yaml", nil, nil, "", "not a text file: it is not valid UTF-8"),
    ("bool-invalid.yaml", 8, 10, "budget.debug", "expected true or false, got \"maybe\""),
    ("budget-max-below-min.yaml", 8, 27, "budget.per_day.max", "max (40.0) must be at least min (50.0)"),
    ("data-conflict.yaml", 11, 11, "widgets[second].data", "widgets of kind 'NewsHeadlines' share one data sou"),
    ("days-not-integer.yaml", 2, 7, "days", "expected a whole number, got \"seven\""),
    ("days-zero.yaml", 2, 7, "days", "must be between 1 and 3650, got 0"),
    (
      "distribution-bad-sigma.yaml", 8, 52, "widgets[headlines].build.cpu.sigma",
      "lognormal distribution: sigma must be > 0, got -0."
    ),
    (
      "distribution-missing-parameter.yaml", 8, 16, "system.after_delay.mean",
      "missing required key 'mean' (a duration)"
    ),
    (
      "distribution-truncation-no-mass.yaml", 8, 58, "widgets[headlines].build.memory.lower",
      "normal distribution: lower leaves no probability: "
    ),
    (
      "distribution-unknown.yaml", 8, 19, "widgets[headlines].build.cpu.dist",
      "unknown distribution \"lognorml\" (did you mean 'log"
    ),
    ("duplicate-id.yaml", 7, 9, "widgets[headlines].id", "duplicate widget id 'headlines': already used by a"),
    ("duplicate-key.yaml", 2, 1, "", "duplicate key 'days' in one mapping"),
    ("duration-negative.yaml", 8, 17, "budget.min_interval", "must be between 0s and 1d, got -5m"),
    (
      "duration-no-unit.yaml", 6, 38, "widgets[headlines].timeline.after",
      "expected a duration with a unit (us, ms, s, min or"
    ),
    ("empty-file.yaml", nil, nil, "", "the file is empty; expected a scenario mapping wit"),
    ("empty-sleep-window.yaml", 8, 30, "user.sleep.to", "the sleep window must not be empty: from and to ar"),
    ("entries-too-many.yaml", 6, 41, "widgets[headlines].timeline.entries", "must be between 1 and 400, got 5000"),
    ("family-typo.yaml", 7, 13, "widgets[headlines].family", "expected one of systemSmall, systemMedium, systemL"),
    ("instances-zero.yaml", 7, 16, "widgets[headlines].instances", "must be between 1 and 100, got 0"),
    ("mapping-expected.yaml", 7, 7, "user", "expected a mapping of keys to values, got \"5\""),
    ("missing-widgets.yaml", 1, 1, "widgets", "missing required key 'widgets' (a list of widgets,"),
    (
      "placement-family-mismatch.yaml", 7, 13, "widgets[headlines].family",
      "Lock Screen widgets use an accessory family (acces"
    ),
    (
      "probability-out-of-range.yaml", 8, 28, "widgets[headlines].build.fetch.probability",
      "must be between 0 and 1, got 1.5"
    ),
    (
      "profile-wrong-length.yaml", 8, 32, "user.home_screen_views.profile",
      "an hourly profile has 24 values (one per clock hou"
    ),
    ("refill-typo.yaml", 8, 11, "budget.refill", "expected one of continuous, rolling_24h, daily, go"),
    (
      "replications-huge.yaml", 3, 15, "replications",
      "1000000000 replications is above the limit of 100000 (pass --allow-large to allow up to 10000000)"
    ),
    ("days-huge.yaml", 2, 7, "days", "1e9 days is above the limit of 3650 (pass --allow-large to allow up to 36500)"),
    (
      "devices-huge.yaml", 8, 12, "fleet.devices",
      "1000000000000 devices is above the limit of 10000000 (pass --allow-large to allow up to 1000000000)"
    ),
    (
      "work-too-large.yaml", 2, 1, "",
      "the run is too large: 10000000 devices x 3650 days x 1 widget instance x 20 replications = 7.3e11 "
        + "widget-days x 206 events each (measured on one device) = 1.5e14 events, above the limit of 1.0e11 events"
    ),
    // Rates that would overflow the event set or a replication's memory, or that are work enough to refuse
    // without simulating a device, are refused from the rates alone (``ScenarioRates``).
    (
      "event-times-too-many.yaml", 9, 5, "events[breaking]",
      "2.4e9 times a day (follow-ups included) over 9 days (the run's and a day either side): 2.2e10 fleet event "
        + "times (follow-ups included) in one replication is above the limit of 10000000"
    ),
    (
      "bursts-pending-too-many.yaml", 10, 17, "widgets[orders].data.changes.bursts",
      "bursts keep about 8.3e9 updates pending on one device at once"
    ),
    (
      "taps-work-too-large.yaml", 3, 1, "",
      // 8 days: the 7 measured and the warm-up a fleet with the default install spread gets.
      "the run is too large: 10000000 devices x 8 days x 101 widget instances x 5 replications = 4.0e10 "
        + "widget-days x 990102 events each (counted from its rates) = 4.0e16 events"
    ),
    ("widgets-too-many.yaml", 5, 3, "widgets", "at most 1000 widget instances on one device, got 1001 widgets"),
    ("event-at-empty.yaml", 9, 9, "events[breaking].at", "expected at least one daily time"),
    ("event-changes-empty.yaml", 10, 14, "events[breaking].changes", "expected at least one widget kind"),
    // Sweeps: errors in swept values point at the swept key in the sweep file.
    (
      "sweep-unknown-key.yaml", 8, 5, "sweep.parameters.widgets[headlines].timeline.aftr",
      "5m at point 0: widgets[headlines].timeline.aftr: unknown key 'aftr' (did you mean 'after'?)"
    ),
    (
      "sweep-value-out-of-range.yaml", 8, 5, "sweep.parameters.budget.per_day.max",
      "-3 at point 1: budget.per_day.max: must be between 0 and 100000, got -3"
    ),
    (
      "sweep-range-too-long.yaml", 9, 57, "sweep.parameters.budget.per_day.max.step",
      "the range has more than 1e308 values; at most 100000"
    ),
    ("sweep-grid-too-large.yaml", 8, 3, "sweep", "the grid has 1.0e20 points; at most 100000"),
    (
      "sweep-base-missing.yaml", 1, 7, "base",
      "\(Repository.path("Tests/ScenarioFilesTests/Fixtures/malformed"))/no-such-scenario.yaml: cannot open"
    ),
    (
      "sweep-replications-huge.yaml", 7, 17, "sweep.replications",
      "100000000 replications is above the limit of 100000 (pass --allow-large"
    ),
    (
      "size-no-unit.yaml", 8, 47, "widgets[headlines].build.fetch.size.median",
      "expected a size with a unit (B, KB, MB, GB, KiB, M"
    ),
    ("spacing-zero.yaml", 6, 53, "widgets[headlines].timeline.spacing", "must be greater than 0s, got 0s"),
    ("tab-indentation.yaml", 3, 1, "", "invalid YAML: found character that cannot start any token while "),
    (
      "unknown-nested-key.yaml", 8, 7, "widgets[headlines].build.cpuu",
      "unknown key 'cpuu' (did you mean 'cpu'?); expected"
    ),
    (
      "unknown-policy.yaml", 6, 24, "widgets[headlines].timeline.policy",
      "expected one of at_end, after, never, got \"afterr\""
    ),
    ("unknown-top-key.yaml", 2, 1, "widget", "unknown key 'widget' (did you mean 'widgets'?)"),
    ("widgets-empty-list.yaml", 2, 10, "widgets", "expected at least one widget"),
    ("widgets-not-list.yaml", 3, 3, "widgets", "expected a list, got a mapping"),
    ("yaml-syntax.yaml", 5, 13, "", "invalid YAML: did not find expected ',' or ']' while parsing a f"),
    ("after-zero.yaml", 8, 38, "widgets[headlines].timeline.after", "must be greater than 0s, got 0s"),
    ("days-list.yaml", 2, 7, "days", "expected a single value, got a list"),
    (
      "exponential-negative-mean.yaml", 9, 44, "widgets[headlines].build.cpu.mean",
      "exponential distribution: mean must be > 0, got -2.0"
    ),
    (
      "fetch-probability-negative.yaml", 9, 34, "widgets[headlines].build.fetch.probability",
      "must be between 0 and 1, got -0.1"
    ),
    ("min-interval-negative.yaml", 2, 53, "budget.min_interval", "must be between 0s and 1d, got -5m"),
    ("rate-negative.yaml", 2, 38, "user.home_screen_views.per_hour", "must be between 0 and 100000, got -3"),
    ("replications-zero.yaml", 2, 15, "replications", "must be between 1 and 100000, got 0"),
    ("seed-negative.yaml", 2, 7, "seed", "expected a whole number from 0 to 18446744073709551615, got \"-1\""),
    ("widget-missing-id.yaml", 4, 5, "widgets[0].id", "missing required key 'id' (a unique name for reports"),
    // Alias bombs (9^10 strings if expanded; aliases of aliases as a mapping key, found by fuzzing) are
    // refused at the 33rd alias, before the YAML library reads them.
    ("yaml-alias-bomb.yaml", 5, 30, "", "more than 32 YAML aliases (*name): aliases of aliases can expand exp"),
    ("yaml-alias-key-bomb.yaml", 7, 30, "", "more than 32 YAML aliases (*name): aliases of aliases can expand exp"),
    ("yaml-bad-indent.yaml", 5, 4, "", "invalid YAML: did not find expected '-' indicator"),
    ("yaml-nested-too-deep.yaml", 2, 11, "", "invalid YAML: Maximum nesting level reached"),
    (
      "yaml-unclosed-flow.yaml", 9, 1, "", "invalid YAML: did not find expected ',' or '}' while parsing a flow mapping"
    ),
    (
      "yaml-unclosed-quote.yaml", 3, 1, "",
      "invalid YAML: found unexpected end of stream while scanning a quoted scalar"
    ),
  ]

  @Test(
    "every malformed fixture is rejected with its file, line, column, key path and message",
    arguments: expectations.indices)
  func fixture(index: Int) {
    let expected = MalformedScenarioTests.expectations[index]
    let path = Repository.path("Tests/ScenarioFilesTests/Fixtures/malformed/\(expected.file)")
    do {
      if expected.file.hasPrefix("sweep-") {
        let sweep = try SweepLoader.load(path: path)
        Issue.record("\(expected.file) was accepted: \(sweep.points.count) points")
      } else {
        let loaded = try ScenarioLoader.load(path: path)
        Issue.record("\(expected.file) was accepted: \(loaded.configuration.name)")
      }
    } catch let error as ScenarioError {
      #expect(error.file == path)
      #expect(error.line == expected.line, "\(expected.file): \(error)")
      #expect(error.column == expected.column, "\(expected.file): \(error)")
      #expect(error.keyPath == expected.keyPath, "\(expected.file): \(error)")
      #expect(error.message.hasPrefix(expected.message), "\(expected.file): \(error)")
      let place = expected.line.map { "\(path):\($0):\(expected.column ?? 0): " } ?? "\(path): "
      #expect(error.description.hasPrefix(place), "\(error)")
    } catch {
      Issue.record("\(expected.file): not a ScenarioError naming its place: \(error)")
    }
  }

  @Test("the fixture table covers every file in the folder, and there are at least 20")
  func everyFixtureIsChecked() throws {
    let listed = Set(MalformedScenarioTests.expectations.map(\.file))
    #expect(listed.count >= 20)
    let onDisk = try TestFiles.list(Repository.path("Tests/ScenarioFilesTests/Fixtures/malformed"))
    #expect(Set(onDisk) == listed)
  }

  @Test("the complex-key scan leaves text alone: ' ? ' in a plain value, ']: ' in quotes and comments")
  func complexKeyLookalikes() throws {
    let text = """
      name: what ? yes  # a comment with [a]: 1 and ? b
      widgets:
        - id: w
          kind: "K [x]: y"
          timeline: {policy: after, at: ["09:30"]}
      """
    let loaded = try ScenarioLoader.load(text: text, file: "t.yaml")
    #expect(loaded.configuration.name == "what ? yes" && loaded.configuration.widgets[0].kind == "K [x]: y")
  }
}
