import CommandSupport
import Fleets
import Reports
import ScenarioFiles
import TestSupport
import Testing
import WidgetModel

@testable import Runs

/// Fleet runs split into shards (`run --shard K/N`) and merged: the whole fleet's reports, byte for byte.
@Suite("Sharded fleet runs")
struct ShardMergeTests {
  /// A small fleet with every kind of server traffic: polling, an event's WidgetKit and silent pushes
  /// fanned out, a Live Activity, time zones, varied sleep, install times and a warm-up.
  static let scenario = """
    name: shards
    days: 2
    warmup_days: 1
    replications: 2
    seed: 11
    server: {push_rate: {per_second: 500}}
    events:
      - id: breaking
        rate: {per_day: 3}
        changes: [News, order]
    live_activities:
      - id: order
        starts: {per_day: 1}
        updates: {interval: {dist: exponential, mean: 20m}}
    fleet:
      devices: 61
      represents: 10000
      timezone_offset: {dist: uniform, low: -8h, high: 2h}
      install_time: {dist: uniform, low: 0s, high: 24h}
      install: {weather: 0.5}
      vary:
        user.sleep.from: {dist: normal, mean: 0s, sd: 45m}
    widgets:
      - id: news
        kind: News
        timeline: {policy: after, after: 30m}
        data: {changes: {per_hour: 1}, on_change: [push, silent_push, reload_kind]}
      - id: weather
        kind: Weather
        timeline: {policy: after, after: 1h}

    """

  static func load() throws -> LoadedScenario {
    try ScenarioLoader.load(text: scenario, file: "shards.yaml")
  }

  /// Every CSV report of a folder, by name.
  static func csvs(_ directory: String) throws -> [String: String] {
    var files: [String: String] = [:]
    for name in try TestFiles.list(directory) where name.hasSuffix(".csv") {
      files[name] = try TestFiles.read("\(directory)/\(name)")
    }
    return files
  }

  static func runShards(_ count: Int, into base: String, perDevice: Bool = true) throws -> [String] {
    let loaded = try load()
    var folders: [String] = []
    for index in 0..<count {
      let folder = "\(base)/shard-\(index)"
      try RunExecution(
        loaded, overrides: [], directory: folder, jobs: index % 2 + 1, perDevice: perDevice, quiet: true,
        version: "test"
      ).runShard(FleetShard(index: index, count: count), allowLarge: false, console: Printed().console, stop: .never)
      folders.append(folder)
    }
    return folders
  }

  @Test("3 shards merged in any order equal the unsharded run, every CSV byte for byte")
  func mergedEqualsWhole() throws {
    let base = TestFiles.temporaryDirectory()
    try RunExecution(
      try Self.load(), overrides: [], directory: "\(base)/whole", jobs: 2, perDevice: true, quiet: true,
      version: "test"
    ).run(console: Printed().console, stop: .never)
    let folders = try Self.runShards(3, into: base)
    #expect(try TestFiles.list(folders[0]).contains("replication-1.shard"))
    try ShardMerge.run(
      folders: [folders[2], folders[0], folders[1]], directory: "\(base)/merged", force: false, quiet: true,
      console: Printed().console)
    let whole = try Self.csvs("\(base)/whole")
    let merged = try Self.csvs("\(base)/merged")
    #expect(whole.keys.sorted() == merged.keys.sorted())
    #expect(whole.keys.contains("devices.csv") && whole.keys.contains("summary.csv"))
    for (name, text) in whole { #expect(merged[name] == text, "\(name) differs") }
    // The manifest records the same run (its fingerprints and events), apart from the wall time.
    func manifest(_ folder: String) throws -> [Substring] {
      try TestFiles.read("\(folder)/manifest.json").split(separator: "\n").filter { !$0.contains("wall_time") }
    }
    #expect(try manifest("\(base)/whole") == manifest("\(base)/merged"))
    // server_peak.csv: ten minutes around the busiest second received of the replication with the busiest,
    // whose `received` column is the peak the summary reports for it.
    let peak = try #require(whole["server_peak.csv"]).split(separator: "\n").map { $0.split(separator: ",") }
    let replications = try #require(whole["replications.csv"]).split(separator: "\n").map { $0.split(separator: ",") }
    let peaks = replications.filter { $0[2] == "peak_requests_per_second" && $0[3] == "received" }
    #expect(peaks.count == 2)
    let top = try #require(peaks.max { Double($0[4])! < Double($1[4])! })
    let rows = peak.dropFirst()
    #expect(rows.allSatisfy { $0[0] == top[1] }, "only replication \(top[1])'s rows")
    #expect(rows.count == 601 || rows.count < 601 && rows.count > 300)
    // Each phone stands for several: the `received` column is the fleet's fitted rate, never above the
    // estimated busiest second, and the sample's own count times the scale is `raw_received`.
    let busiest = try #require(rows.first { $0[4] == "0" })
    #expect(rows.allSatisfy { Double($0[5])! <= Double(top[4])! + 0.006 })
    let raw = try #require(peak.first?.firstIndex(of: "raw_received"))
    #expect(rows.allSatisfy { Double($0[raw])! >= 0 } && Double(busiest[raw])! > 0)
  }

  @Test("missing, repeated, damaged or foreign shards are refused with exit 2, naming the folder")
  func refusals() throws {
    // Copies of the two shards ShardIdentityTests runs once (this test damages and replaces them).
    let (base, folders) = try ShardIdentityTests.shards()
    func refusal(_ folders: [String]) -> CommandFailure? {
      do {
        try ShardMerge.run(
          folders: folders, directory: "\(base)/out-\(folders.count)", force: true, quiet: true,
          console: Printed().console)
        return nil
      } catch {
        return error
      }
    }
    let missing = refusal([folders[0]])
    #expect(missing?.status == 2 && missing?.message.contains("shards 1/2 are missing") == true)
    let twice = refusal([folders[0], folders[0]])
    #expect(twice?.message.contains("are both shard 0/2") == true)
    // A cut file fails its checksum.
    let path = "\(folders[1])/\(ShardFolder.replicationFile(1))"
    let bytes = try TextFile.readBytes(path, limit: 1 << 30)
    try AtomicFile.write(String(decoding: bytes.prefix(bytes.count / 2), as: UTF8.self), to: path)
    let damaged = refusal(folders)
    #expect(damaged?.status == 2 && damaged?.message.contains("checksum") == true)
    // A shard of another scenario.
    let other = try ScenarioLoader.load(
      text: Self.scenario.replacingOccurrences("seed: 11", "seed: 12"), file: "x.yaml")
    try RunExecution(other, overrides: [], directory: folders[1], quiet: true, existing: .replace, version: "test")
      .runShard(FleetShard(index: 1, count: 2), allowLarge: false, console: Printed().console, stop: .never)
    let foreign = refusal(folders)
    #expect(foreign?.message.contains("a different run") == true)
    #expect(refusal(["\(base)/nowhere"])?.status == 2)
  }
}

extension String {
  fileprivate func replacingOccurrences(_ target: String, _ replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
