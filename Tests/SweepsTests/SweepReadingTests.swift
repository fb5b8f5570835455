import CommandSupport
import Reports
import ScenarioFiles
import TestSupport
import Testing
import WidgetModel

@testable import Sweeps

/// Sweeps that read (issue 23, item 4): the manifest, swept quantities in base units, the console's
/// headline figures and best point.
@Suite("Sweep manifest, base-unit columns and headlines")
struct SweepReadingTests {
  @Test("manifest.json holds the scenario, overrides, seed and the grid, lockstep keys as one axis; it reads back")
  func manifest() throws {
    let path = try sweepFile(SweepTests.grid)
    let sweep = try SweepLoader.load(path: path, overrides: [try ScenarioOverride("seed=7")])
    let plan = SweepPlan(sweep: sweep, overrides: ["seed=7"], commonRandomNumbers: true)
    let manifest = SweepOutput.manifest(sweep, plan: plan, overrides: ["seed=7"])
    let text = manifest.json
    #expect(text.hasPrefix("{\n  \"kind\": \"sweep\",\n  \"scenario_name\": \"quickstart\",\n"))
    for line in [
      "  \"scenario_file\": \(JSONValue.quoted(path)),", "  \"overrides\": [\"seed=7\"],", "  \"seed\": 7,",
      "  \"days\": 2,", "  \"replications\": 3,", "  \"streams\": \"common\",", "  \"points\": 6,",
      "    {\"keys\":[\"widgets[headlines].timeline.after\"],\"lockstep\":false,\"values\":[[\"15m\"],[\"30m\"]]},",
      "    {\"keys\":[\"user.app_opens.per_day\",\"budget.per_day.min\"],\"lockstep\":true,"
        + "\"values\":[[\"2\",\"20\"],[\"6\",\"30\"]]}",
      "    {\"widgets[headlines].timeline.after\":\"30m\",\"budget.per_day.max\":\"40\"}",
    ] {
      #expect(text.contains(line + "\n"), "\(line) missing from\n\(text)")
    }
    let directory = TestFiles.temporaryDirectory()
    try manifest.write(to: directory)
    let read = try #require(try SweepManifest(directory: directory))
    #expect(read == manifest)
    #expect(read.grid.map(\.keys.count) == [1, 1, 2])
    #expect(read.seedText == "7" && read.daysText == "2" && read.replicationsText == "3")
    // A run's manifest is not a sweep's.
    try AtomicFile.write("{\n  \"scenario_name\": \"x\"\n}\n", to: "\(directory)/manifest.json")
    #expect(try SweepManifest(directory: directory) == nil)
  }

  @Test("an objective naming a metric or widget the summary lacks is refused before any task runs, with its place")
  func objectiveChecked() throws {
    let text = try TestFiles.read(Repository.path("Scenarios/sweep-refresh-interval.yaml"))
    let folder = TestFiles.temporaryDirectory()
    for (broken, expected) in [
      (
        text.replacing("minimize: staleness_mean", with: "minimize: stalness_mean"),
        "sweep.objective.minimize: no metric stalness_mean in summary.csv (did you mean staleness_mean?)"
      ),
      (
        text.replacing("widget: headlines}", with: "widget: headline}"),
        "sweep.objective.widget: staleness_mean has no row for headline"
      ),
    ] {
      #expect(broken != text)
      let path = "\(folder)/objective.yaml"
      try TestFiles.write(broken, to: path)
      let out = "\(folder)/out"
      #expect {
        try SweepExecution(try SweepLoader.load(path: path), overrides: [], directory: out, jobs: 1, quiet: true)
          .run(console: Printed().console, stop: .never)
      } throws: { error in
        guard let failure = error as? CommandFailure else { return false }
        return failure.status == 2 && failure.message.contains("\(path):53:") && failure.message.contains(expected)
      }
      #expect((try? TestFiles.list(out)) == nil, "nothing ran")
    }
  }

  @Test("the manifest is the same bytes for --jobs 1 and 2, after a stop and resume, and merged from shards")
  func manifestStable() throws {
    let sweep = try SweepExecutionTests.sweep()
    func manifest(_ directory: String) throws -> String { try TestFiles.read("\(directory)/manifest.json") }
    let one = TestFiles.temporaryDirectory()
    try SweepExecution(sweep, overrides: ["replications=2"], directory: one, jobs: 1, quiet: true)
      .run(console: Printed().console, stop: .never)
    let two = TestFiles.temporaryDirectory()
    try SweepExecution(sweep, overrides: ["replications=2"], directory: two, jobs: 2, quiet: true)
      .run(console: Printed().console, stop: .never)
    #expect(try manifest(one) == manifest(two))

    let resumed = TestFiles.temporaryDirectory()
    let stop = StopRequest(listen: {}, isRequested: { true }, exitStatus: { 130 })
    _ = try? SweepExecution(sweep, overrides: ["replications=2"], directory: resumed, jobs: 1, quiet: true)
      .run(console: Printed().console, stop: stop)
    try SweepExecution(sweep, overrides: ["replications=2"], directory: resumed, jobs: 2, quiet: true)
      .run(console: Printed().console, stop: .never)
    #expect(try manifest(resumed) == manifest(one))

    let merged = try shardedAndMerged(sweep, shards: 2)
    #expect(try manifest(merged) == manifest(one))
  }

  @Test("swept durations and sizes get a column in base units (_s, _bytes); plain numbers and words do not")
  func baseUnitColumns() throws {
    let points: [SweepPointRow] = [
      (0, "", ["5m", "30KB", "40", "none", "90s"]), (1, "", ["1h", "1.5MiB", "70", "push", "2"]),
    ]
    let keys = ["a.after", "b.size", "c.max", "d.on_change", "e.mixed"]
    let (header, cells) = SweepReports.pointColumns(points: points, keys: keys)
    #expect(header == "point_label,a.after,b.size,c.max,d.on_change,e.mixed,a.after_s,b.size_bytes")
    #expect(cells[0] == ",5m,30KB,40,none,90s,300,30000")
    #expect(cells[1] == ",1h,1.5MiB,70,push,2,3600,1572864")

    let path = try sweepFile(
      """
        parameters:
          widgets[headlines].timeline.after: [15m, 1h]
      """)
    let files = try runSweep(path, directory: TestFiles.temporaryDirectory())
    #expect(
      files["sweep_summary.csv"]?.hasPrefix(
        "point,point_label,widgets[headlines].timeline.after,widgets[headlines].timeline.after_s,metric,") == true)
    #expect(files["sweep_summary.csv"]?.contains("\n1,,1h,3600,reloads_per_day,headlines,") == true)
    #expect(files["sweep.csv"]?.contains("\n0,,15m,900,0,") == true)
  }

  @Test("headlines: each point's figures with CIs, the best point by the lowest staleness_mean, ties to the first")
  func headlines() {
    func row(_ point: Int, _ metric: String, _ mean: Double, _ interval: (Double, Double)? = nil) -> SweepSummaryRow {
      SweepSummaryRow(point: point, metric: metric, widget: "w", mean: mean, interval: interval, unit: "s")
    }
    let points: [SweepPointRow] = (0..<25).map { ($0, "", ["\($0)m"]) }
    var rows: [SweepSummaryRow] = []
    for point in 0..<25 {
      rows.append(row(point, "reloads_per_day", 10, (9, 11)))
      rows.append(row(point, "staleness_mean", point == 3 || point == 22 ? 5 : 50 + Double(point), (4, 6)))
    }
    let lines = SweepHeadlines.lines(rows: rows, points: points, keys: ["k"])
    #expect(lines.first == "per point and widget, mean over replications [95% CI]:")
    #expect(
      lines.dropFirst().prefix(2) == [
        "  point 0 (k=0m)", "    w: reloads/day 10.0 [9.0, 11.0], staleness mean 50 [4, 6] s",
      ])
    #expect(lines.contains("  (5 more points in sweep_summary.csv)"))
    #expect(!lines.contains("  point 20 (k=20m)"))
    #expect(
      lines.last
        == "best point by the lowest staleness_mean of w (the default; set sweep.objective to choose): point 3 (k=3m): "
        + "5.00 [4.00, 6.00] s")
    #expect(SweepHeadlines.lines(rows: [], points: points, keys: ["k"]).isEmpty)

    // The sweep's objective: the highest reloads_per_day (all equal: the first point), or a metric no point has.
    let highest = SweepHeadlines.lines(
      rows: rows, points: points, keys: ["k"],
      objective: SweepManifest.Objective(metric: "reloads_per_day", widget: nil, minimize: false))
    #expect(
      highest.last
        == "best point by the highest reloads_per_day of w (the sweep's objective): point 0 (k=0m): 10.00 [9.00, 11.00] s"
    )
    let missing = SweepHeadlines.lines(
      rows: rows, points: points, keys: ["k"],
      objective: SweepManifest.Objective(metric: "joules_per_day", widget: "w", minimize: true))
    #expect(
      missing.last?.hasSuffix(": no point has it (see the metric and widget columns of sweep_summary.csv)") == true)
  }

  @Test("sweep.objective: minimize or maximize a metric, of a widget or not; in the manifest; bad ones named")
  func objective() throws {
    let grid = "  parameters:\n    widgets[headlines].timeline.after: [15m, 1h]\n"
    let sweep = try SweepLoader.load(
      path: try sweepFile(grid + "  objective: {maximize: reloads_per_day, widget: score}\n"))
    #expect(
      sweep.specification.objective == SweepObjective(metric: "reloads_per_day", widget: "score", minimize: false))
    let plan = SweepPlan(sweep: sweep, overrides: [], commonRandomNumbers: true)
    let manifest = SweepOutput.manifest(sweep, plan: plan, overrides: [])
    #expect(manifest.json.contains("\n  \"objective\": {\"maximize\":\"reloads_per_day\",\"widget\":\"score\"}\n}\n"))
    let directory = TestFiles.temporaryDirectory()
    try manifest.write(to: directory)
    #expect(try SweepManifest(directory: directory)?.objective == manifest.objective)
    let plain = try SweepExecutionTests.sweep()
    let none = SweepOutput.manifest(
      plain, plan: SweepPlan(sweep: plain, overrides: [], commonRandomNumbers: true), overrides: [])
    #expect(none.json.contains("\n  \"objective\": null\n}\n"))

    for (objective, message) in [
      ("{minimize: staleness_p95, maximize: reloads_per_day}", "give minimize or maximize, not both"),
      ("{widget: headlines}", "expected minimize: METRIC or maximize: METRIC"),
      ("{minimise: staleness_p95}", "unknown key 'minimise' (did you mean 'minimize'?)"),
    ] {
      let error = try #require(throws: ScenarioError.self) {
        try SweepLoader.load(path: try sweepFile(grid + "  objective: \(objective)\n"))
      }
      #expect(error.message.contains(message), "\(error)")
      #expect(error.keyPath.hasPrefix("sweep.objective"), "\(error)")
    }
  }
}
