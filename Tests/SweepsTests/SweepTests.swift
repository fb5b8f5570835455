import CGSL
import Reports
import ScenarioFiles
import SimulationEngine
import Statistics
import TestSupport
import Testing
import WidgetModel

@testable import Sweeps

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A small sweep file over the quickstart scenario, written to a temporary folder.
func sweepFile(_ sweep: String, days: Int = 2) throws -> String {
  let directory = TestFiles.temporaryDirectory()
  let base = try TestFiles.read(Repository.path("Scenarios/quickstart.yaml"))
  let path = "\(directory)/sweep.yaml"
  try AtomicFile.write(base.replacingDays(days) + "\nsweep:\n" + sweep, to: path)
  return path
}

extension String {
  fileprivate func replacingDays(_ days: Int) -> String {
    split(separator: "\n", omittingEmptySubsequences: false).map {
      $0.hasPrefix("days:") ? "days: \(days)" : String($0)
    }
    .joined(separator: "\n")
  }
}

/// Runs a whole sweep (or a shard) into `directory` and returns the report files' contents.
@discardableResult
func runSweep(
  _ path: String, directory: String, jobs: Int = 1, shard: (index: Int, count: Int)? = nil,
  commonRandomNumbers: Bool = true, stopAfter: Int? = nil
) throws -> [String: String] {
  let sweep = try SweepLoader.load(path: path)
  let plan = SweepPlan(sweep: sweep, overrides: [], commonRandomNumbers: commonRandomNumbers)
  try AtomicFile.createDirectory(directory)
  try SweepOutput.writePoints(plan, to: directory)
  let (journal, contents) = try SweepJournal.open(
    path: "\(directory)/\(SweepOutput.journal)", identity: plan.identity, taskCount: plan.tasks.count)
  let done = contents.done
  let counter = Counter()
  let values = try SweepRunner.run(
    plan, shard: shard, jobs: jobs, journal: journal, done: done,
    interrupted: { stopAfter.map { counter.value >= $0 } ?? false }, progress: { _, _ in counter.increment() })
  guard shard == nil, values.count == plan.tasks.count else { return [:] }
  try SweepReports.write(
    points: plan.points.map { ($0.index, $0.label, $0.assignments.map(\.value)) }, keys: plan.keys, tasks: plan.tasks,
    values: values, baseline: 0, to: directory)
  var files: [String: String] = [:]
  for name in ["sweep.csv", "sweep_summary.csv", "sweep_baseline.csv"] {
    files[name] = try TestFiles.read("\(directory)/\(name)")
  }
  return files
}

final class Counter: Sendable {
  private let count = SynchronizedInt()
  var value: Int { count.load() }
  func increment() { count.add(1) }
}

@Suite("Sweeps")
struct SweepTests {
  static let grid = """
      parameters:
        widgets[headlines].timeline.after: [15m, 30m]
        budget.per_day.max: {from: 40, to: 70, step: 30}
      lockstep:
        - user.app_opens.per_day: [2, 6]
          budget.per_day.min: [20, 30]
      exclude:
        - widgets[headlines].timeline.after: 30m
          budget.per_day.max: 40
      replications: 3
    """

  @Test("expansion: cross product in order, lockstep keys together, exclusions removed")
  func expansion() throws {
    let sweep = try SweepLoader.load(path: try sweepFile(SweepTests.grid))
    #expect(sweep.points.allSatisfy { $0.label.isEmpty }, "no points list: no labels")
    let labels = sweep.points.map(\.settings)
    #expect(
      labels == [
        "widgets[headlines].timeline.after=15m, budget.per_day.max=40, user.app_opens.per_day=2, budget.per_day.min=20",
        "widgets[headlines].timeline.after=15m, budget.per_day.max=40, user.app_opens.per_day=6, budget.per_day.min=30",
        "widgets[headlines].timeline.after=15m, budget.per_day.max=70, user.app_opens.per_day=2, budget.per_day.min=20",
        "widgets[headlines].timeline.after=15m, budget.per_day.max=70, user.app_opens.per_day=6, budget.per_day.min=30",
        "widgets[headlines].timeline.after=30m, budget.per_day.max=70, user.app_opens.per_day=2, budget.per_day.min=20",
        "widgets[headlines].timeline.after=30m, budget.per_day.max=70, user.app_opens.per_day=6, budget.per_day.min=30",
      ])
    #expect(sweep.points.map(\.index) == Array(0..<6))
    #expect(sweep.configurations[4].widgets[0].timeline.policy == .after(.minutes(30)))
    #expect(sweep.configurations[5].budget.minPerDay == 30 && sweep.configurations[5].user.appOpensPerDay == 6)
    #expect(sweep.configurations.allSatisfy { $0.replications == 3 })
  }

  @Test("a sweep file may name its base scenario, relative to itself")
  func baseScenario() throws {
    let directory = TestFiles.temporaryDirectory()
    try AtomicFile.write(try TestFiles.read(Repository.path("Scenarios/news-15min.yaml")), to: "\(directory)/base.yaml")
    try AtomicFile.write(
      "base: base.yaml\nsweep:\n  parameters:\n    budget.per_day.max: [40, 50, 60]\n", to: "\(directory)/sweep.yaml")
    let sweep = try SweepLoader.load(path: "\(directory)/sweep.yaml")
    #expect(sweep.points.count == 3)
    #expect(sweep.configurations.map(\.budget.maxPerDay) == [40, 50, 60])
    #expect(sweep.name == "news-15min")
  }

  @Test("a base outside the sweep file's folder (by path, '..' or a link) is refused unless allowed")
  func baseOutside() throws {
    let outer = TestFiles.temporaryDirectory()
    let inner = "\(outer)/sweeps"
    try AtomicFile.createDirectory(inner)
    try AtomicFile.write(try TestFiles.read(Repository.path("Scenarios/news-15min.yaml")), to: "\(outer)/base.yaml")
    #expect(symlink("\(outer)/base.yaml", "\(inner)/linked.yaml") == 0)
    for base in ["../base.yaml", "\(outer)/base.yaml", "linked.yaml"] {
      let file = "\(inner)/sweep.yaml"
      try AtomicFile.write("base: \(base)\nsweep:\n  parameters:\n    budget.per_day.max: [40, 50]\n", to: file)
      do {
        _ = try SweepLoader.load(path: file)
        Issue.record("loaded base \(base)")
      } catch let error as ScenarioError {
        #expect(error.keyPath == "base" && error.message.contains("--allow-outside-base"), "\(error)")
      }
      let allowed = try SweepLoader.load(path: file, limits: ScenarioLimits(allowOutsideBase: true))
      #expect(allowed.points.count == 2)
    }
  }

  @Test("every point is checked before any runs; errors name the swept key's place, the value and the point")
  func invalidPoint() throws {
    let path = try sweepFile(
      """
        parameters:
          widgets[headlines].timeline.after: [15m, soon]
      """)
    do {
      _ = try SweepLoader.load(path: path)
      Issue.record("accepted a point with after=soon")
    } catch let error as ScenarioError {
      #expect(error.file == path)
      #expect(error.line != nil && error.column == 5)
      #expect(error.keyPath == "sweep.parameters.widgets[headlines].timeline.after")
      #expect(
        error.message.hasPrefix("soon at point 1: widgets[headlines].timeline.after: expected a duration"), "\(error)")
    }
    let unknown = try sweepFile(
      """
        parameters:
          budget.per_dy.max: [40]
      """)
    let error = #expect(throws: ScenarioError.self) { try SweepLoader.load(path: unknown) }
    #expect(
      error?.message.contains("unknown key 'per_dy' (did you mean 'per_day'?)") == true, "\(String(describing: error))")
  }

  @Test("common random numbers: views and app opens are identical across points for the same replication")
  func commonRandomNumbers() throws {
    let sweep = try SweepLoader.load(path: try sweepFile(SweepTests.grid))
    let plan = SweepPlan(sweep: sweep, overrides: [], commonRandomNumbers: true)
    for replication in 0..<3 {
      let results = [0, 2, 5].map { ScenarioRunner.runReplication(plan.configurations[$0], replication: replication) }
      // Views of both widgets do not depend on the refresh policy or the budget.
      for instance in 0..<2 {
        #expect(Set(results.map { $0.staleness[instance].views }).count == 1)
      }
      // Points 0 and 2 share app opens (2 a day): the same foreground reloads.
      #expect(
        results[0].total(instance: 0, cause: .appForeground) == results[1].total(instance: 0, cause: .appForeground))
    }
  }

  @Test("common random numbers shrink the variance of a paired difference at least 5x against independent streams")
  func varianceReduction() throws {
    let path = try sweepFile(
      """
        parameters:
          widgets[headlines].timeline.after: [30m, 35m]
          user.app_opens.per_day: [40]
        replications: 30
      """, days: 3)
    let sweep = try SweepLoader.load(path: path)
    func differences(common: Bool) -> RunningStatistics {
      let plan = SweepPlan(sweep: sweep, overrides: [], commonRandomNumbers: common)
      var statistics = RunningStatistics()
      for replication in 0..<30 {
        let first = ScenarioRunner.runReplication(plan.configurations[0], replication: replication)
        let second = ScenarioRunner.runReplication(plan.configurations[1], replication: replication)
        // Most fetches follow the user's app opens (every open fetches and reloads): what common random
        // numbers share between the points.
        statistics.add(Double(second.fetches[0] - first.fetches[0]))
      }
      return statistics
    }
    let common = differences(common: true)
    let independent = differences(common: false)
    print(
      "paired difference of fetches, 30 replications: variance \(common.variance) with CRN, \(independent.variance) independent"
    )
    // Not just the point estimates: an F test at 95% that the true ratio of the two variances exceeds 5
    // (both are sample variances of 30 independent paired differences, so their ratio over the true ratio
    // follows F(29, 29)).
    let critical = gsl_cdf_fdist_Pinv(0.95, 29, 29)
    #expect(
      common.variance * 5 * critical <= independent.variance,
      "CRN \(common.variance), independent \(independent.variance), F(29, 29) 95% \(critical)")
  }

  @Test("--jobs 1 and 2 write byte-identical reports")
  func jobsInvariance() throws {
    let path = try sweepFile(SweepTests.grid)
    let one = try runSweep(path, directory: TestFiles.temporaryDirectory(), jobs: 1)
    let two = try runSweep(path, directory: TestFiles.temporaryDirectory(), jobs: 2)
    #expect(one == two)
    #expect(
      one["sweep.csv"]?.hasPrefix("point,point_label,widgets[headlines].timeline.after,budget.per_day.max,") == true)
  }

  @Test("shards 0/3, 1/3 and 2/3 merged equal the unsharded sweep")
  func shards() throws {
    let path = try sweepFile(SweepTests.grid)
    let whole = try runSweep(path, directory: TestFiles.temporaryDirectory(), jobs: 2)
    let folders = (0..<3).map { _ in TestFiles.temporaryDirectory() }
    for index in 0..<3 {
      try runSweep(path, directory: folders[index], jobs: 1, shard: (index, 3))
    }
    var values: [Int: [MetricValue]] = [:]
    for folder in folders {
      values.merge(try SweepJournal.load(path: "\(folder)/\(SweepOutput.journal)").done) { first, _ in first }
    }
    let (keys, points, tasks) = try SweepOutput.readPoints(from: folders[0])
    let merged = TestFiles.temporaryDirectory()
    try SweepReports.write(points: points, keys: keys, tasks: tasks, values: values, baseline: 0, to: merged)
    for name in ["sweep.csv", "sweep_summary.csv", "sweep_baseline.csv"] {
      #expect(try TestFiles.read("\(merged)/\(name)") == whole[name], "\(name)")
    }
  }

  @Test("interrupted and torn journals resume to byte-identical reports (5 random cut points)")
  func resume() throws {
    let path = try sweepFile(SweepTests.grid)
    let reference = try runSweep(path, directory: TestFiles.temporaryDirectory(), jobs: 2)
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: 99))
    for _ in 0..<5 {
      let directory = TestFiles.temporaryDirectory()
      // Stop part-way, then cut the journal at a random byte, as kill -9 or a power cut mid-write would.
      try runSweep(path, directory: directory, jobs: 2, stopAfter: 1 + stream.integer(below: 12))
      let journal = "\(directory)/\(SweepOutput.journal)"
      let text = try TestFiles.read(journal)
      let cut = stream.integer(below: text.utf8.count)
      #expect(truncate(journal, off_t(cut)) == 0)
      let resumed = try runSweep(path, directory: directory, jobs: 2)
      #expect(resumed == reference)
    }
  }

  @Test("misspelt sweep keys get a did-you-mean with their position")
  func misspeltKeys() throws {
    let parameters = try sweepFile("  paramters:\n    days: [1, 2]\n")
    do {
      _ = try SweepLoader.load(path: parameters)
      Issue.record("loaded a sweep with 'paramters'")
    } catch let error as ScenarioError {
      #expect(error.keyPath == "sweep.paramters" && error.message.contains("did you mean 'parameters'?"), "\(error)")
      #expect(error.line != nil, "\(error)")
    }
    let directory = TestFiles.temporaryDirectory()
    let section = "\(directory)/swep.yaml"
    try AtomicFile.write("base: base.yaml\nswep:\n  parameters:\n    days: [1, 2]\n", to: section)
    do {
      _ = try SweepLoader.load(path: section)
      Issue.record("loaded a sweep file without 'sweep'")
    } catch let error as ScenarioError {
      #expect(error.line == 2 && error.message.contains("did you mean 'sweep'?"), "\(error)")
    }
  }

  @Test("a journal of another sweep is refused, naming what differs; an older format too")
  func foreignJournal() throws {
    let directory = TestFiles.temporaryDirectory()
    let path = "\(directory)/\(SweepOutput.journal)"
    let mine = SweepIdentity(text: "a", overrides: ["seed=1"], commonRandomNumbers: true)
    _ = try SweepJournal.open(path: path, identity: mine, taskCount: 3)
    _ = try SweepJournal.open(path: path, identity: mine, taskCount: 3)
    for (other, what) in [
      (SweepIdentity(text: "a", overrides: ["seed=2"], commonRandomNumbers: true), "overrides: seed=1 vs seed=2"),
      (SweepIdentity(text: "b", overrides: ["seed=1"], commonRandomNumbers: true), "scenario: "),
      (SweepIdentity(text: "a", overrides: ["seed=1"], commonRandomNumbers: false), "streams: common vs independent"),
      (SweepIdentity(text: "a", overrides: ["seed=1"], commonRandomNumbers: true, model: "other"), "model: "),
    ] {
      do {
        _ = try SweepJournal.open(path: path, identity: other, taskCount: 3)
        Issue.record("opened a journal of another sweep (\(what))")
      } catch {
        #expect(error.isBadInput && error.message.contains(what), "\(error)")
        // One difference, and the legend "(journal vs this command)".
        #expect(error.message.ranges(of: " vs ").count == 2, "only what differs: \(error)")
      }
    }
    try TestFiles.write("widgetsim-sweep-journal 1 abcd 3\nv\t0\tm\tw\tu\t1\ndone\t0\n", to: path)
    #expect(throws: SweepJournal.JournalError.self) { try SweepJournal.open(path: path, identity: mine, taskCount: 3) }
  }

  @Test("a record changed on disk fails its checksum: reported and run again, the others kept")
  func corruptRecord() throws {
    let path = try sweepFile(SweepTests.grid)
    let directory = TestFiles.temporaryDirectory()
    let reference = try runSweep(path, directory: directory, jobs: 2)
    let journal = "\(directory)/\(SweepOutput.journal)"
    var lines = try TestFiles.read(journal).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // Change one value in the middle of the journal, as a bad disk or an edit would.
    let target = lines.indices.filter { lines[$0].hasPrefix("v\t") }[5]
    var fields = lines[target].split(separator: "\t").map(String.init)
    fields[5] = fields[5] == "1.0" ? "2.0" : "1.0"
    lines[target] = fields.joined(separator: "\t")
    try TestFiles.write(lines.joined(separator: "\n"), to: journal)
    let contents = try SweepJournal.load(path: journal)
    let task = Int(fields[1])!
    #expect(contents.corrupt == [task])
    #expect(contents.done[task] == nil && contents.done.count == contents.tasks - 1)
    #expect(try runSweep(path, directory: directory, jobs: 2) == reference, "the corrupt task ran again")
  }
}
