import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("Limits on the command line's counts")
struct LimitCommandTests {
  @Test("--shard K/N with N above the devices or tasks it splits is refused (exit 2), a huge N included")
  func shardCount() throws {
    let out = TestFiles.temporaryDirectory()
    let phone = try Subprocess.run(["run", "--shard", "0/9223372036854775807", "--out", "\(out)/phone", "--quiet"])
    #expect(phone.code == 2)
    #expect(
      phone.output.contains(
        "error: --shard 0/9223372036854775807: the fleet has 1 device to split, so N may be at most 1"))
    let fleet = try Subprocess.run([
      "run", Repository.path("Scenarios/fleet-breaking-news.yaml"), "--devices", "3", "--shard", "2/4", "--out",
      "\(out)/fleet", "--quiet",
    ])
    #expect(fleet.code == 2)
    #expect(fleet.output.contains("error: --shard 2/4: the fleet has 3 devices to split, so N may be at most 3"))
    let sweep = try Subprocess.run([
      "sweep", Repository.path("Scenarios/sweep-refresh-interval.yaml"), "--replications", "1", "--shard", "0/11",
      "--out", "\(out)/sweep", "--quiet",
    ])
    #expect(sweep.code == 2)
    #expect(sweep.output.contains("error: --shard 0/11: the sweep has 10 tasks (points x replications) to split"))
    #expect(!exists("\(out)/phone") && !exists("\(out)/fleet") && !exists("\(out)/sweep"))
  }

  @Test("--max-replications is held to the replication limit and, with --precision, to the work limit")
  func maximumReplications() throws {
    let out = TestFiles.temporaryDirectory()
    let count = try Subprocess.run([
      "run", "--precision", "staleness_p95:1e-9%", "--max-replications", "99999999999", "--out", out, "--quiet",
    ])
    #expect(count.code == 2)
    #expect(
      count.output.contains(
        "--max-replications: 99999999999 replications is above the limit of 100000 (pass --allow-large"))
    let work = try Subprocess.run([
      "run", Repository.path("Scenarios/fleet-breaking-news.yaml"), "--precision", "staleness_p95:1%",
      "--max-replications", "100000", "--out", out, "--quiet",
    ])
    #expect(work.code == 2)
    #expect(work.output.contains("error: --max-replications 100000: the run is too large: 20000 devices x 8 days"))
    #expect(!exists(out + "/summary.csv"))
  }

  func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }
}
