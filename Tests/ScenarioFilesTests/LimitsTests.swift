import Results
import TestSupport
import Testing
import WidgetModel

@testable import ScenarioFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("Size limits")
struct LimitsTests {
  static func scenario(days: String = "1", devices: String = "1", replications: String = "1") -> String {
    """
    name: limits
    days: \(days)
    replications: \(replications)
    widgets:
      - id: headlines
        kind: NewsHeadlines
        timeline: {policy: after, after: 15m}
    fleet: {devices: \(devices)}

    """
  }

  static func message(_ text: String, _ limits: ScenarioLimits) -> String? {
    do {
      _ = try ScenarioLoader.load(text: text, file: "limits.yaml", limits: limits)
      return nil
    } catch {
      return error.message
    }
  }

  @Test("--allow-large lifts the standard limits up to the hard ones, which stay")
  func allowLarge() throws {
    let text = Self.scenario(days: "20000")
    #expect(
      Self.message(text, .standard) == "20000 days is above the limit of 3650 (pass --allow-large to allow up to 36500)"
    )
    let loaded = try ScenarioLoader.load(text: text, file: "limits.yaml", limits: .large)
    #expect(loaded.configuration.days == 20_000)
    #expect(
      Self.message(Self.scenario(days: "40000"), .large)
        == "40000 days is above the hard limit of 36500, which --allow-large does not lift")
    #expect(
      Self.message(Self.scenario(devices: "2000000000"), .large)
        == "2000000000 devices is above the hard limit of 1000000000, which --allow-large does not lift")
    #expect(
      Self.message(Self.scenario(replications: "2e7"), .large)
        == "2e7 replications is above the hard limit of 10000000, which --allow-large does not lift")
  }

  @Test("the counters' memory is estimated as allocated: 2 GB per replication, 16 GB with --allow-large")
  func memoryLimit() throws {
    // 3,650 days x 100 instances: 14 x 10 reload counters of 4 bytes per instance-hour alone are 4.9 GB.
    let text = Self.scenario(days: "3650").replacing(
      "kind: NewsHeadlines", with: "kind: NewsHeadlines\n    instances: 100")
    let standard = try #require(Self.message(text, .standard))
    #expect(
      standard.contains("3650 days x 100 instances would need") && standard.contains("limit 2000 MB"), "\(standard)")
    #expect(Self.message(text, .large) == nil, "7 GB fits under --allow-large")
    let decade = Self.scenario(days: "36500").replacing(
      "kind: NewsHeadlines", with: "kind: NewsHeadlines\n    instances: 100")
    let large = try #require(Self.message(decade, .large))
    #expect(large.contains("limit 16000 MB"), "\(large)")
    let expected = ReplicationResult.estimatedBytes(days: 3_650, instanceCount: 100, activityKinds: 0)
    #expect(standard.contains("\(Int(expected / 1e6)) MB of counters"), "\(standard)")
    #expect(expected > 4.9e9 && expected < 8e9)
    // A fleet also keeps its load per second (19 bytes a second: 6 GB for ten years), unless told not to.
    let fleet = Self.scenario(days: "3650", devices: "2")
    #expect(try #require(Self.message(fleet, .standard)).contains("would need"))
    #expect(Self.message(fleet + "server: {per_second: false}\n", .standard) == nil)
  }

  @Test("work past 1e11 events (measured rates) needs --allow-large; the message shows the estimate")
  func workLimit() throws {
    let text = Self.scenario(days: "1000", devices: "1000000", replications: "2")
    let loaded = try ScenarioLoader.load(text: text, file: "limits.yaml", limits: .large)
    let work = WorkEstimate(loaded.configuration)
    #expect(work.events > 1e11)
    let message = try #require(Self.message(text, .standard))
    #expect(
      message.hasPrefix(
        // 1001 days: the warm-up the default install spread brings is simulated too.
        "the run is too large: 1000000 devices x 1001 days x 1 widget instance x 2 replications = 2.0e9 "
          + "widget-days x \(Int(work.eventsPerWidgetDay.rounded())) events each (measured on one device) = "
          + "\(WorkEstimate.scientific(work.events)) events, above the limit of 1.0e11 events (about "))
    #expect(message.hasSuffix("); pass --allow-large to run it anyway"))
    #expect(Self.message(Self.scenario(days: "1000", devices: "100000"), .standard) == nil, "3e10 events pass")
  }

  @Test("the estimate measures the scenario's own rates: views, pushes and short timelines cost more")
  func measuredRates() throws {
    func estimate(_ extra: String) throws -> WorkEstimate {
      WorkEstimate(try ScenarioLoader.load(text: Self.scenario() + extra, file: "limits.yaml").configuration)
    }
    let quiet = try estimate("user: {home_screen_views: {per_hour: 1}}\n")
    let busy = try estimate("user: {home_screen_views: {per_hour: 60}}\n")
    // 59 more views an hour over the waking day (16.5 h by default) are about 970 more events a day.
    #expect(busy.eventsPerDeviceDay - quiet.eventsPerDeviceDay > 800)
    #expect(quiet.eventsPerWidgetDay == quiet.eventsPerDeviceDay)  // one widget instance
  }

  @Test("the work estimate: events and a rough duration at the reference rate")
  func estimate() {
    let fleet = WorkEstimate(devices: 100_000, days: 30, instances: 3, replications: 1, eventsPerDeviceDay: 400)
    #expect(fleet.widgetDays == 9e6)
    #expect(fleet.events == 1.2e9)
    #expect(
      fleet.description
        == "100000 devices x 30 days x 3 widget instances x 1 replication = 9.0e6 widget-days x 133 events each "
        + "(measured on one device) = 1.2e9 events")
    // 1.2e9 / (4e6 x 2) = 150 s.
    #expect(fleet.duration(cores: 2) == "about 3 min on 2 cores at the reference machine's rate")
    #expect(
      WorkEstimate.duration(events: 1e11, cores: 2) == "about 3 h 28 min on 2 cores at the reference machine's rate")
    #expect(
      WorkEstimate.duration(events: 1e14, cores: 2) == "about 145 days on 2 cores at the reference machine's rate")
    #expect(WorkEstimate.scientific(99_960) == "1.0e5")
    #expect(WorkEstimate.scientific(.infinity) == "more than 1e308")
  }

  @Test("at most 32 YAML aliases; asterisks in quotes, comments and plain words are not aliases")
  func aliases() throws {
    func text(aliases: Int) -> String {
      "name: aliases\ncpu: &cpu 0.1s\nshared: [" + Array(repeating: "*cpu", count: aliases).joined(separator: ", ")
        + "]\nnote: \"*not an alias\" # *nor this\nother: a*b\n"
    }
    #expect(throws: Never.self) { try YAMLAliasLimit.check(text(aliases: 32), file: "a.yaml") }
    let error = #expect(throws: ScenarioError.self) { try YAMLAliasLimit.check(text(aliases: 33), file: "a.yaml") }
    #expect(error?.line == 3)
    #expect(error?.column == 10 + 6 * 32, "the 33rd alias: after \"shared: [\" and 32 of \"*cpu, \"")
    // Anchors and aliases work in a real scenario.
    let loaded = try ScenarioLoader.load(
      text: """
        name: anchors
        widgets:
          - id: a
            kind: A
            timeline: {policy: after, after: 15m}
            build: {cpu: &cpu {dist: lognormal, median: 0.2s, sigma: 0.5}}
          - id: b
            kind: B
            timeline: {policy: after, after: 30m}
            build: {cpu: *cpu}

        """, file: "anchors.yaml")
    #expect(loaded.configuration.widgets.count == 2)
  }

  @Test("a file of hundreds of MB is refused from its size, before it is read; an endless one after 4 MiB")
  func fileSize() throws {
    let path = TestFiles.temporaryDirectory() + "/huge.yaml"
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    #expect(descriptor >= 0)
    #expect(ftruncate(descriptor, 300 << 20) == 0)  // sparse: takes no disk space
    close(descriptor)
    let error = #expect(throws: ScenarioError.self) { _ = try ScenarioLoader.load(path: path) }
    #expect(error?.message == "the file is 300 MiB, above the limit of 4 MiB for a scenario file")
    #expect(error?.file == path)
    let endless = #expect(throws: ScenarioError.self) { _ = try ScenarioLoader.load(path: "/dev/zero") }
    #expect(endless?.message == "the file is more than 4 MiB, above the limit of 4 MiB for a scenario file")
    let folder = #expect(throws: ScenarioError.self) { _ = try ScenarioLoader.load(path: "/tmp") }
    #expect(folder?.message == "is a folder, not a scenario file")
  }
}
