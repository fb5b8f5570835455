import Reports
import ScenarioFiles
import TestSupport
import Testing

@testable import Sweeps

/// A sweep whose points are fleets: what the servers must provision per second for each design (busiest
/// second and p99, received and sent), with the interval each figure has.
@Suite("Designs compared by the servers' busiest second and p99, for the whole fleet")
struct SweepCapacityTests {
  /// The two designs of ``SweepDesignTests/pollingAndSilentPush`` as a fleet of 40 phones over one day.
  static func fleetSweep(replications: Int, represents: Int) throws -> (LoadedSweep, [String]) {
    let overrides = ["fleet.devices=40", "fleet.represents=\(represents)", "replications=\(replications)"]
    let path = try SweepDesignTests.updateChannel(SweepDesignTests.pollingAndSilentPush, days: 1)
    let sweep = try SweepLoader.load(path: path, overrides: try overrides.map { try ScenarioOverride($0) })
    return (sweep, overrides)
  }

  /// Runs the sweep into a new folder; returns the folder and what it printed.
  static func run(_ sweep: LoadedSweep, _ overrides: [String]) throws -> (directory: String, console: String) {
    let directory = TestFiles.temporaryDirectory() + "/sweep"
    let printed = Printed()
    try SweepExecution(sweep, overrides: overrides, directory: directory, jobs: 2)
      .run(console: printed.console, stop: .never)
    return (directory, printed.output.text)
  }

  /// The servers' table of sweep_compare.md: its lines from the header on, each split into cells.
  static func capacityRows(_ markdown: String) throws -> [[String]] {
    let lines = markdown.split(separator: "\n").map(String.init)
    let heading = try #require(lines.firstIndex(of: SweepComparison.capacityHeading), "\(markdown)")
    return lines[(heading + 1)...].prefix { $0.hasPrefix("|") }.map { line in
      line.dropFirst(2).dropLast(2).components(separatedBy: " | ")
    }
  }

  /// sweep_summary.csv's (ci95_low, ci_method) of the per-second figures of `received` and `sent`, by point.
  static func intervals(_ directory: String) throws -> [(point: String, low: String, method: String)] {
    let lines = CSVLines.parse(try TestFiles.read("\(directory)/sweep_summary.csv"))
    let header = try #require(lines.first)
    let column = { (name: String) in try #require(header.firstIndex(of: name)) }
    let (point, metric, widget, low, method) = (
      try column("point"), try column("metric"), try column("widget"), try column("ci95_low"), try column("ci_method")
    )
    return lines.dropFirst().filter { cells in
      ["peak_requests_per_second", "p99_requests_per_second"].contains(cells[metric])
        && ["received", "sent"].contains(cells[widget])
    }.map { ($0[point], $0[low], $0[method]) }
  }

  static let header = [
    "point", "design", "received: busiest second (requests/s)", "received: p99 (requests/s)",
    "sent: busiest second (requests/s)", "sent: p99 (requests/s)", "interval",
  ]

  @Test(
    "a sample of the fleet: the console and sweep_compare.md show each design's busiest second and p99 with the t interval over replications, or with one replication the sample's own"
  )
  func sampledFleet() throws {
    for (replications, method, words) in [
      (3, "t", "95% CI over 3 replications"), (1, "fleet_sample", "the sample's 95% interval (one replication)"),
    ] {
      let (sweep, overrides) = try Self.fleetSweep(replications: replications, represents: 4_000)
      let (directory, console) = try Self.run(sweep, overrides)
      let rows = try Self.capacityRows(try TestFiles.read("\(directory)/\(SweepComparison.file)"))
      #expect(rows.first == Self.header)
      #expect(rows.count == 4, "\(rows)")
      #expect(rows[2].prefix(2) == ["0", "poll 15m"] && rows[3].prefix(2) == ["1", "silent push"], "\(rows)")
      // The silent-push design both fetches and sends: its four figures each have an interval.
      for cell in rows[3][2...5] { #expect(cell.wholeMatch(of: /[0-9.]+ \[[0-9.]+, [0-9.]+\]/) != nil, "\(cell)") }
      #expect(rows[2].last == words && rows[3].last == words, "\(rows)")
      // The poll design receives in every second: its received figures have an interval too.
      for cell in rows[2][2...3] { #expect(cell.contains(" ["), "\(cell)") }

      let found = try Self.intervals(directory)
      #expect(found.count == 8, "\(found)")
      #expect(found.filter { $0.point == "1" }.allSatisfy { !$0.low.isEmpty && $0.method == method }, "\(found)")

      // The console prints the same table under a line that says where its intervals come from.
      let lines = console.split(separator: "\n").map(String.init)
      let title = try #require(lines.firstIndex { $0.hasPrefix("the servers per second for the whole fleet") })
      #expect(
        lines[(title + 1)...].prefix(4).map { $0.dropFirst(2).dropLast(2).components(separatedBy: " | ") } == rows)
      #expect(
        lines.contains { $0.hasPrefix("comparison (sweep_compare.md, Markdown; ") }
          && lines.contains { $0.contains(replications > 1 ? "means [95% CI]" : "one replication: no CI") })
    }
  }

  @Test("every phone simulated, one replication: the figures are counted and have no interval, and the table says so")
  func countedFleet() throws {
    let (sweep, overrides) = try Self.fleetSweep(replications: 1, represents: 40)
    let (directory, console) = try Self.run(sweep, overrides)
    let rows = try Self.capacityRows(try TestFiles.read("\(directory)/\(SweepComparison.file)"))
    #expect(rows.first == Self.header)
    for row in rows.dropFirst(2) {
      for cell in row[2...5] { #expect(cell.wholeMatch(of: /[0-9.]+/) != nil, "\(cell)") }
      #expect(row.last == "none: counted, every phone simulated (one replication)")
    }
    #expect(try Self.intervals(directory).allSatisfy { $0.low.isEmpty && $0.method == "none" })
    #expect(console.contains("| 1 | silent push | "))
    #expect(!console.contains("[95% CI]"), "no interval, no CI promised")
  }

  @Test("a sweep of single phones has no servers' table; the phone's table is the whole file, as before")
  func singlePhones() {
    let points: [SweepPointRow] = [(0, "a", ["1"])]
    let rows = [
      SweepSummaryRow(point: 0, metric: "reloads_per_day", widget: "w", mean: 10, interval: nil, unit: "reloads/day")
    ]
    #expect(SweepComparison.capacityTable(rows: rows, points: points, keys: ["k"]).isEmpty)
    #expect(!SweepComparison.markdown(rows: rows, points: points, keys: ["k"]).contains("Servers, per second"))
  }
}
