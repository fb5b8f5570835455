import CommandSupport
import Fleets
import Reports
import ScenarioFiles
import TestSupport
import Testing

@testable import Runs

/// `widgetsim run` as its options ask for it, without the command line: the options' checks, the run they
/// build and what it writes.
@Suite("A run request")
struct RunRequestTests {
  static let quickstart = Repository.path("Scenarios/quickstart.yaml")

  /// A request of the quickstart scenario, shortened, into `out`.
  static func request(out: String? = nil, _ change: (inout RunRequest) -> Void = { _ in }) -> RunRequest {
    var request = RunRequest(
      file: quickstart, scenario: ScenarioArguments(replications: 2, days: 1), out: out, quiet: true,
      version: "test")
    change(&request)
    return request
  }

  @Test("problem: each option that cannot be, or cannot go with another, in the command line's words")
  func problems() {
    let cases: [(String, (inout RunRequest) -> Void)] = [
      ("--jobs must be at least 1, got 0", { $0.jobs = 0 }),
      (
        "--resume carries on the run in the output folder and --force replaces it: give one",
        { ($0.force, $0.resume) = (true, true) }
      ),
      (
        "--precision takes METRIC[@SUBJECT]:P% with 0 < P <= 100, e.g. staleness_p95:5%; got 'x'",
        { $0.precision = ["x"] }
      ),
      ("--trace takes a device number from 0, got -1", { $0.trace = -1 }),
      ("--max-replications must be at least 1, got 0", { $0.maxReplications = 0 }),
      ("--max-devices must be at least 1, got 0", { $0.maxDevices = 0 }),
      ("--precision-batch must be at least 1, got 0", { $0.precisionBatch = 0 }),
      (
        "--precision decides replications as it goes: it does not apply to a shard",
        { ($0.precision, $0.shard) = (["staleness_p95:5%"], "0/2") }
      ),
      ("--shard takes K/N with 0 <= K < N, e.g. 0/4; got '2/2'", { $0.shard = "2/2" }),
      ("--resume does not apply to a shard: rerun it with --force", { ($0.shard, $0.resume) = ("0/2", true) }),
      (
        "a shard has no reports to chart: give --report to the merged run's `report`",
        { ($0.shard, $0.report) = ("0/2", true) }
      ),
      (
        "--server-log does not apply to a shard: log the fleet in a run without --shard",
        { ($0.shard, $0.serverLog) = ("0/2", "s.csv") }
      ),
      ("--field-log and --server-log name one file: give two", { ($0.fieldLog, $0.serverLog) = ("f", "f") }),
    ]
    for (message, change) in cases {
      #expect(Self.request(change).problem() == message)
    }
    #expect(Self.request().problem() == nil)
    #expect(Self.request { $0.maxReplications = 100_001 }.problem()?.hasPrefix("--max-replications: ") == true)
    #expect(
      Self.request {
        $0.maxReplications = 100_001
        $0.scenario.allowLarge = true
      }.problem() == nil)
  }

  @Test("the run: the overrides and precision options recorded, the folder, what to do with reports there")
  func execution() throws {
    let plain = try Self.request().execution()
    #expect(plain.overrides == ["replications=2", "days=1"])
    #expect(plain.directory == "Reports/quickstart" && plain.existing == .refuse && plain.precision == nil)
    let precise = try Self.request(out: "x") {
      ($0.precision, $0.maxReplications, $0.precisionBatch, $0.force) = (["staleness_p95:5%"], 40, 4, true)
    }.execution()
    #expect(
      precise.overrides == [
        "replications=2", "days=1", "--precision staleness_p95:5.00%", "--max-replications 40",
        "--precision-batch 4",
      ])
    #expect(precise.directory == "x" && precise.existing == .replace)
    #expect(
      precise.precision == PrecisionPlan(targets: precise.precision?.targets ?? [], minimum: 2, batch: 4, maximum: 40))
    #expect(try Self.request { $0.resume = true }.execution().existing == .resume)
  }

  @Test("bad input is exit 2: an unreadable scenario, --precision past the work limit")
  func badInput() {
    let missing = #expect(throws: CommandFailure.self) {
      try RunRequest(file: "/no/such/scenario.yaml", version: "test").execution()
    }
    #expect(missing?.status == 2 && missing?.message.hasPrefix("error: ") == true)
    let fleet = RunRequest(
      file: Repository.path("Scenarios/fleet-capacity.yaml"), precision: ["staleness_p95:5%"],
      maxReplications: 100_000, version: "test")
    let refused = #expect(throws: CommandFailure.self) { try fleet.execution() }
    #expect(refused?.status == 2 && refused?.message.hasPrefix("error: --max-replications 100000: ") == true)
  }

  @Test("run: the reports written into the folder, the run returned; a shard returns nothing")
  func run() throws {
    let root = TestFiles.temporaryDirectory()
    let ran = try #require(try Self.request(out: "\(root)/run").run(console: Printed().console, stop: .never))
    #expect(ran.directory == "\(root)/run")
    #expect(try TestFiles.read("\(root)/run/manifest.json").contains("\"overrides\": [\"replications=2\", \"days=1\"]"))
    let shard = RunRequest(
      file: Repository.path("Scenarios/fleet-capacity.yaml"),
      scenario: ScenarioArguments(replications: 1, days: 1, devices: 4),
      out: "\(root)/shard", quiet: true, shard: "1/2", version: "test")
    #expect(try shard.run(console: Printed().console, stop: .never) == nil)
    #expect(try TestFiles.list("\(root)/shard").contains(ShardFolder.description))
  }
}
