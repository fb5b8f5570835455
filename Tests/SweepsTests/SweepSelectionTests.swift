import CommandSupport
import Reports
import ScenarioFiles
import SimulationEngine
import TestSupport
import Testing

@testable import Sweeps

/// A stop request that says stop once it has been asked `calls` times: a run interrupted part way.
final class StopAfterCalls: Sendable {
  private let count = SynchronizedInt()
  let calls: Int
  init(_ calls: Int) { self.calls = calls }
  var request: StopRequest {
    StopRequest(
      listen: {},
      isRequested: { [self] in
        count.add(1)
        return count.load() > calls
      }, exitStatus: { 130 })
  }
}

@Suite("Selecting the best feasible design in a sweep")
struct SweepSelectionTests {
  /// Three designs of the quickstart that differ only in the app's opens a day (4, 6, 8): the foreground
  /// wakes a day have those true means. Maximizing them with at most 7 (tolerance 0.5): 6 opens is the best
  /// feasible design, 8 opens is infeasible by twice the tolerance.
  static let designs = """
      points:
        - {label: 4 opens, set: {user.app_opens.per_day: 4}}
        - {label: 6 opens, set: {user.app_opens.per_day: 6}}
        - {label: 8 opens, set: {user.app_opens.per_day: 8}}
    """

  static let select = """
      select:
        maximize: app_wakes_per_day_foreground
        widget: app
        indifference: 1 wakes/day
        confidence: 0.9
        constraints:
          - {metric: app_wakes_per_day_foreground, widget: app, at_most: 7, tolerance: 0.5}
        first: 5
        max_replications: 400
    """

  static func run(_ path: String, jobs: Int, stop: StopRequest = .never, printed: Printed = Printed()) throws
    -> [String: String]
  {
    let sweep = try SweepLoader.load(path: path)
    let directory = TestFiles.temporaryDirectory() + "/sweep"
    let execution = SweepExecution(sweep, overrides: [], directory: directory, jobs: jobs)
    #expect(try execution.run(console: printed.console, stop: stop))
    return try SweepExecutionTests.files(
      directory, ["selection.csv", "sweep.csv", "sweep_summary.csv", "sweep_compare.md"])
  }

  @Test("designs with known means: the best feasible is chosen, the infeasible one found so; same for any --jobs")
  func knownMeans() throws {
    let path = try sweepFile(Self.designs + "\n" + Self.select, days: 1)
    let printed = Printed()
    let one = try Self.run(path, jobs: 1, printed: printed)
    let three = try Self.run(path, jobs: 3)
    #expect(one == three)
    let rows = (one["selection.csv"] ?? "").split(separator: "\n").map {
      $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
    #expect(rows.count == 4)
    #expect(rows.dropFirst().map { $0[2] } == ["dropped", "chosen", "infeasible"])
    #expect(rows[1][3] == "1")
    #expect(rows[3][5] == "app_wakes_per_day_foreground")
    let text = printed.output.text
    #expect(
      text.contains(
        "6 opens is the best feasible design: with probability at least 90%, no other feasible design has a "
          + "higher app_wakes_per_day_foreground by 1 wakes/day or more"), "\(text)")
    #expect(text.contains("  2 8 opens: infeasible on app_wakes_per_day_foreground at replication "), "\(text)")
    #expect(!text.contains("best point by"))
  }

  @Test("a selection interrupted part way and run again writes what an uninterrupted one writes")
  func resumes() throws {
    let path = try sweepFile(Self.designs + "\n" + Self.select, days: 1)
    let whole = try Self.run(path, jobs: 2)
    let sweep = try SweepLoader.load(path: path)
    let directory = TestFiles.temporaryDirectory() + "/sweep"
    let execution = SweepExecution(sweep, overrides: [], directory: directory, jobs: 2, quiet: true)
    #expect(throws: CommandFailure.self) {
      try execution.run(console: Printed().console, stop: StopAfterCalls(8).request)
    }
    let journal = try TestFiles.read("\(directory)/\(SweepOutput.journal)")
    #expect(journal.contains("\ndone\t"))
    #expect(!TextFile.isReadable("\(directory)/selection.csv"))
    #expect(try execution.run(console: Printed().console, stop: .never))
    let resumed = try SweepExecutionTests.files(
      directory, ["selection.csv", "sweep.csv", "sweep_summary.csv", "sweep_compare.md"])
    #expect(resumed == whole)
  }

  @Test("--replications beside select is said to be ignored: the selection decides the replications")
  func replicationsOverrideIgnored() throws {
    let path = try sweepFile(Self.designs + "\n" + Self.select, days: 1)
    let printed = Printed()
    let plain = try Self.run(path, jobs: 2)
    let sweep = try SweepLoader.load(path: path)
    let directory = TestFiles.temporaryDirectory() + "/sweep"
    #expect(
      try SweepExecution(sweep, overrides: ["replications=3"], directory: directory, jobs: 2).run(
        console: printed.console, stop: .never))
    #expect(
      printed.error.text.contains("a sweep with select decides each design's replications"), "\(printed.error.text)")
    #expect(try TestFiles.read("\(directory)/selection.csv") == plain["selection.csv"])
  }

  /// The refusal of a `select` section, from loading it or from running it (before anything runs).
  static func refusal(_ select: String) throws -> (message: String, file: String) {
    let path = try sweepFile(Self.designs + "\n" + select, days: 1)
    let file = try TestFiles.read(path)
    do {
      let sweep = try SweepLoader.load(path: path)
      let directory = TestFiles.temporaryDirectory() + "/sweep"
      try SweepExecution(sweep, overrides: [], directory: directory, jobs: 1).run(
        console: Printed().console, stop: .never)
      #expect(!TextFile.isReadable("\(directory)/\(SweepOutput.journal)"))
    } catch let error as ScenarioError {
      return (error.description, file)
    } catch let failure as CommandFailure {
      #expect(failure.status == 2)
      return (failure.message, file)
    }
    return ("", file)
  }

  @Test(
    "bad select input is refused before anything runs, with file, line, column and a did-you-mean",
    arguments: [
      (
        "minimize: phone_mwh_per_dy\n    indifference: 1", "no metric phone_mwh_per_dy", "phone_mwh_per_day",
        "phone_mwh_per_dy"
      ),
      ("minimize: phone_mwh_per_day\n    indifference: 2 s", "does not fit phone_mwh_per_day", "mWh/day", "2 s"),
      ("minimize: phone_mwh_per_day\n    indifference: 0", "above 0", "", "indifference: 0"),
      ("minimize: phone_mwh_per_day\n    indifference: -1 mWh/day", "above 0", "", "-1 mWh"),
      (
        "minimize: phone_mwh_per_day\n    indifference: 1\n    confidence: 1", "above 0.5 and below 1", "", "confidence"
      ),
      (
        "minimize: phone_mwh_per_day\n    indifference: 1\n    confidence: 0.5", "above 0.5 and below 1", "",
        "confidence"
      ),
      (
        "minimize: phone_mwh_per_day\n    indifference: 1\n    standard: 6 open", "names no point", "6 opens",
        "standard"
      ),
      ("minimize: phone_mwh_per_day\n    indifference: 1\n    first: 4", "at least 5", "", "first"),
      (
        "minimize: phone_mwh_per_day\n    indifference: 1\n    confidance: 0.9", "unknown key", "confidence",
        "confidance"
      ),
      (
        "minimize: phone_mwh_per_day\n    indifference: 1\n    constraints:\n      - {metric: staleness_p95, "
          + "widget: headline, at_most: 15m, tolerance: 1m}", "no row for headline", "headlines", "widget: headline,"
      ),
    ])
  func refusals(select: String, message: String, hint: String, token: String) throws {
    let (refusal, file) = try Self.refusal("  select:\n    " + select)
    let line =
      1 + (file.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(token) } ?? -2)
    #expect(refusal.contains("sweep.yaml:\(line):"), "\(refusal)")
    #expect(refusal.contains("sweep.select"), "\(refusal)")
    #expect(refusal.contains(message), "\(refusal)")
    #expect(hint.isEmpty || refusal.contains(hint), "\(refusal)")
  }
}

@Suite("A select section's quantities in their metric's unit")
struct SelectionQuantityTests {
  static func value(_ text: String, in unit: String) -> Double? {
    SweepSelection.Quantity(
      text: text, place: ScenarioError(file: "f", line: 1, column: 1, keyPath: "k", message: "")
    ).value(in: unit)
  }

  @Test("bare numbers, the metric's own unit, and units of the same kind convert; others do not fit")
  func conversions() {
    #expect(Self.value("0.2 mWh/day", in: "mWh/day") == 0.2)
    #expect(Self.value("60", in: "requests/day") == 60)
    #expect(Self.value("15m", in: "s") == 900)
    #expect(Self.value("1m", in: "s") == 60)
    #expect(Self.value("36 J/day", in: "mWh/day").map { abs($0 - 10) < 1e-12 } == true)
    #expect(Self.value("2 s", in: "mWh/day") == nil)
    #expect(Self.value("2 mWh", in: "mWh/day") == nil)
    #expect(Self.value("mWh/day", in: "mWh/day") == nil)
  }
}
