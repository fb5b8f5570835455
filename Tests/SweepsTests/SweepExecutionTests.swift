import CommandSupport
import Reports
import ScenarioFiles
import TestSupport
import Testing

@testable import Sweeps

/// A console that keeps what it was given.
struct Printed {
  let output = SynchronizedText()
  let error = SynchronizedText()
  var console: Console {
    Console(output: { [output] in output.append($0) }, error: { [error] in error.append($0) })
  }
}

@Suite("Running and merging a sweep into folders")
struct SweepExecutionTests {
  /// Two points of a short quickstart, with 2 replications each.
  static func sweep() throws -> LoadedSweep {
    let path = try sweepFile(
      """
        parameters:
          widgets[headlines].timeline.after: [15m, 1h]
      """)
    return try SweepLoader.load(path: path, overrides: [try ScenarioOverride("replications=2")])
  }

  static func files(_ directory: String, _ names: [String] = ["sweep.csv", "sweep_summary.csv"]) throws
    -> [String: String]
  {
    var files: [String: String] = [:]
    for name in names { files[name] = try TestFiles.read("\(directory)/\(name)") }
    return files
  }

  @Test("a sweep writes its reports and says so; run again, it resumes with everything done and writes the same")
  func runsAndResumes() throws {
    let sweep = try Self.sweep()
    let directory = TestFiles.temporaryDirectory() + "/sweep"
    let printed = Printed()
    let execution = SweepExecution(sweep, overrides: [], directory: directory, jobs: 2, baselinePoint: 1)
    #expect(try execution.run(console: printed.console, stop: .never))
    // As `run` prints its replications: each point's headline figures with 95% CIs (what the phone pays first,
    // then each widget's, its energy its own alone), the points by what the phone pays, the best point, the
    // comparison table.
    let lines = printed.output.text.split(separator: "\n").map(String.init)
    #expect(lines.count == 24, "\(printed.output.text)")
    #expect(lines.first == "\(sweep.name): 2 points x 2 replications = 4 tasks")
    #expect(lines.dropFirst().first == "per point and widget, mean over replications [95% CI]:")
    #expect(lines.dropFirst(2).first == "  point 0 (widgets[headlines].timeline.after=15m)")
    #expect(lines.dropFirst(3).first?.hasPrefix("    phone pays: ") == true)
    #expect(lines.dropFirst(3).first?.hasSuffix("] % of the battery a day") == true)
    let figures = lines.dropFirst(4).first ?? ""
    for part in [
      "    headlines: reloads/day ", "], staleness mean ", " s, p95 ", " s, budget exhausted on ",
      ", energy (widget alone) ", " mWh/day",
    ] {
      #expect(figures.contains(part), "\(figures)")
    }
    // Energy in one unit everywhere: mWh/day, as `run` and the point's phone line give it.
    #expect(!figures.contains("J/day"), "\(figures)")
    #expect(figures.contains(" ["), "no confidence interval: \(figures)")
    #expect(lines.dropFirst(5).first?.hasPrefix("    score: reloads/day ") == true)
    #expect(lines.dropFirst(6).first == "  point 1 (widgets[headlines].timeline.after=1h)")
    #expect(
      lines.dropFirst(10).first
        == "what the phone pays a day (widgets, the app's own runs, push wake-ups, radio), cheapest first:")
    // The two points on cost against staleness (each on the front: the dearer is the fresher).
    #expect(lines.dropFirst(13).first?.hasPrefix("cost against staleness (* on the Pareto front") == true)
    #expect(
      lines.dropFirst(14).first?.hasPrefix("  * ") == true && lines.dropFirst(15).first?.hasPrefix("  * ") == true)
    #expect(
      lines.dropFirst(16).first?.hasPrefix(
        "best point by the lowest staleness_mean of headlines (the default; set sweep.objective to choose): point ")
        == true)
    // What every point's figures rest on, once: the sweep does not vary it.
    #expect(
      lines.dropFirst(17).first?.hasPrefix("assumptions: network Wi-Fi 50% of hours, else LTE (device.network, ")
        == true)
    #expect(lines.dropFirst(17).first?.hasSuffix(" (every point)") == true)
    #expect(lines.dropFirst(18).first?.hasPrefix("comparison (sweep_compare.md, Markdown;") == true)
    #expect(lines.dropFirst(19).first?.hasPrefix("| point | settings | phone mWh/day | % battery/day |") == true)
    #expect(lines.last == "reports: \(directory)/ (sweep.csv, sweep_summary.csv, sweep_compare.md, sweep_baseline.csv)")
    #expect(printed.error.text.isEmpty)
    #expect(
      try TestFiles.list(directory)
        == [
          OutputFolder.lockName, "manifest.json", "sweep-journal.txt", "sweep-points.csv", "sweep.csv",
          "sweep_baseline.csv", "sweep_compare.md", "sweep_summary.csv",
        ])
    // Every file the sweep writes is documented; sweep-points.csv with the header it has.
    let documentation = try TestFiles.read(Repository.path("docs/sweeps.md"))
    for file in try TestFiles.list(directory) where file != OutputFolder.lockName {
      #expect(documentation.contains("`\(file)`"), "docs/sweeps.md does not describe \(file)")
    }
    let points = try TestFiles.read("\(directory)/sweep-points.csv")
    #expect(points.hasPrefix("point,replications,point_label,widgets[headlines].timeline.after\n"))
    #expect(documentation.contains("`sweep-points.csv` —\n  `point,replications,point_label,<each swept key>`"))
    let first = try Self.files(
      directory, ["sweep.csv", "sweep_summary.csv", "sweep_baseline.csv", SweepManifest.file])

    let again = Printed()
    try execution.run(console: again.console, stop: .never)
    #expect(
      again.output.text.hasPrefix("\(sweep.name): 2 points x 2 replications = 4 tasks, 4 already done (resuming)\n"))
    #expect(
      try Self.files(directory, ["sweep.csv", "sweep_summary.csv", "sweep_baseline.csv", SweepManifest.file]) == first)
  }

  @Test("shards run their share and write no reports; merged, they equal the whole sweep")
  func shardsMerge() throws {
    let sweep = try Self.sweep()
    let whole = TestFiles.temporaryDirectory()
    try SweepExecution(sweep, overrides: [], directory: whole, quiet: true).run(
      console: Printed().console, stop: .never)
    var folders: [String] = []
    for index in 0..<2 {
      let folder = TestFiles.temporaryDirectory()
      let printed = Printed()
      let shard = try #require(SweepShard("\(index)/2"))
      #expect(
        !(try SweepExecution(sweep, overrides: [], directory: folder, shard: shard).run(
          console: printed.console, stop: .never)))
      #expect(printed.output.text.contains(", shard \(index)/2: 2 tasks\n"))
      #expect(
        printed.output.text.hasSuffix("shard done: \(folder)/ (combine the shard folders with `widgetsim merge`)\n"))
      #expect(ExistingReports.find(SweepReports.files, in: folder).isEmpty)
      folders.append(folder)
    }
    let merged = TestFiles.temporaryDirectory() + "/merged"
    let printed = Printed()
    try SweepMerge.run(folders: folders, directory: merged, baselinePoint: nil, force: false, console: printed.console)
    #expect(printed.output.text.hasPrefix("per point and widget, mean over replications [95% CI]:\n"))
    #expect(printed.output.text.contains("\nbest point by the lowest staleness_mean of headlines (the default; "))
    #expect(printed.output.text.hasSuffix("\nreports: \(merged)/ (sweep.csv, sweep_summary.csv, sweep_compare.md)\n"))
    // The manifest too: the shards wrote the whole sweep's, and merge writes the same bytes.
    let names = SweepReports.files + [SweepManifest.file]
    #expect(try Self.files(merged, names) == Self.files(whole, names))

    let refused = try #require(throws: CommandFailure.self) {
      try SweepMerge.run(
        folders: folders, directory: merged, baselinePoint: nil, force: false, console: printed.console)
    }
    #expect(refused.status == 2 && refused.message.hasPrefix("error: \(merged)/ already holds reports (sweep.csv"))
    let missing = try #require(throws: CommandFailure.self) {
      try SweepMerge.run(
        folders: [folders[0]], directory: nil, baselinePoint: nil, force: false, console: printed.console)
    }
    #expect(
      missing
        == .badInput(
          "2 of 4 tasks are in no shard folder (first: task 1): give every shard's folder, each finished"))
  }

  @Test("bad input fails with exit 2 before anything runs")
  func badInput() throws {
    let sweep = try Self.sweep()
    let directory = TestFiles.temporaryDirectory()
    let outOfRange = try #require(throws: CommandFailure.self) {
      try SweepExecution(sweep, overrides: [], directory: directory, baselinePoint: 2).run(
        console: Printed().console, stop: .never)
    }
    #expect(outOfRange == .badInput("--baseline-point 2: the sweep has points 0-1"))
    #expect(try TestFiles.list(directory).isEmpty)

    // Reports without a journal are another sweep's: refused unless --force.
    try AtomicFile.write("x\n", to: "\(directory)/sweep.csv")
    let refused = try #require(throws: CommandFailure.self) {
      try SweepExecution(sweep, overrides: [], directory: directory, quiet: true).run(
        console: Printed().console, stop: .never)
    }
    #expect(refused.status == 2)
    #expect(try TestFiles.read("\(directory)/sweep.csv") == "x\n")
    try SweepExecution(sweep, overrides: [], directory: directory, quiet: true, force: true)
      .run(console: Printed().console, stop: .never)
    #expect(try TestFiles.read("\(directory)/sweep.csv").hasPrefix("point,"))

    // Another sweep's journal (other overrides, so another fingerprint) is not resumed.
    let other = try #require(throws: CommandFailure.self) {
      try SweepExecution(sweep, overrides: ["seed=1"], directory: directory, quiet: true)
        .run(console: Printed().console, stop: .never)
    }
    #expect(other.status == 2)
  }

  @Test("a stop keeps the finished tasks in the journal and ends with the stop's status")
  func stopped() throws {
    let sweep = try Self.sweep()
    let directory = TestFiles.temporaryDirectory()
    let stop = StopRequest(listen: {}, isRequested: { true }, exitStatus: { 130 })
    let failure = try #require(throws: CommandFailure.self) {
      try SweepExecution(sweep, overrides: [], directory: directory, jobs: 1, quiet: true).run(
        console: Printed().console, stop: stop)
    }
    #expect(
      failure
        == CommandFailure(
          status: 130,
          message: "interrupted: 0 of 4 tasks done and recorded in \(directory)/sweep-journal.txt; run the same "
            + "command again to resume"))
    #expect(ExistingReports.find(SweepReports.files, in: directory).isEmpty)
  }

  @Test("--shard K/N: 0 <= K < N")
  func shardParsing() {
    #expect(SweepShard("0/4") == SweepShard("0/4") && SweepShard("3/4")?.index == 3 && SweepShard("3/4")?.count == 4)
    for bad in ["4/4", "-1/4", "1/0", "1", "a/b", "1/2/3", ""] { #expect(SweepShard(bad) == nil, "\(bad)") }
  }
}
