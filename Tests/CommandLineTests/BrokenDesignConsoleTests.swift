import TestSupport
import Testing

/// What `run` prints must not hide a broken design or mislead on delivery times.
@Suite("run's console on broken designs and deliveries")
struct BrokenDesignConsoleTests {
  @Test("a 30 MB fetch (a unit slip for 30 KB): a warning, and staleness counts the placeholder views")
  func placeholderWarning() throws {
    let root = TestFiles.temporaryDirectory()
    let scenario = Repository.path("Scenarios/news-15min.yaml")
    let broken = try Subprocess.run([
      "run", scenario, "--set", "widgets[headlines].build.fetch.size=30MB", "--days", "2", "--replications", "5",
      "--out", "\(root)/broken",
    ])
    #expect(broken.code == 0, "\(broken.output)")
    let warning = try #require(broken.output.split(separator: "\n").first { $0.hasPrefix("warning: headlines: ") })
    #expect(warning.contains("100.0% of views found the placeholder"), "\(warning)")
    #expect(warning.contains("builds a day ran past build.time_limit (5.0 s)"), "\(warning)")
    // Every view is the placeholder since the widget was added: its staleness p95 is more than a day.
    let summary = try TestFiles.read("\(root)/broken/summary.csv")
    let p95 = try #require(summary.split(separator: "\n").first { $0.hasPrefix("staleness_p95,headlines,") })
    #expect((Double(p95.split(separator: ",")[2]) ?? 0) > 86_400, "\(p95)")

    let working = try Subprocess.run([
      "run", scenario, "--days", "2", "--replications", "5", "--out", "\(root)/working",
    ])
    #expect(working.code == 0 && !working.output.contains("warning:"), "\(working.output)")
  }

  @Test("an event's first push: the median and the shares within 1, 10, 60 min; the last is a sample's maximum")
  func deliveryTimes() throws {
    let run = try Subprocess.run([
      "run", Repository.path("Scenarios/fleet-breaking-news.yaml"), "--devices", "60", "--days", "1",
      "--replications", "1", "--out", TestFiles.temporaryDirectory() + "/news",
    ])
    #expect(run.code == 0, "\(run.output)")
    let line = try #require(run.output.split(separator: "\n").first { $0.hasPrefix("  event breaking: ") })
    #expect(line.contains(" s (median), within 1/10/60 min ") && line.contains("% of phones"), "\(line)")
    #expect(line.contains("(a sample's maximum: more phones, later)"), "\(line)")
    #expect(!line.contains("on average"), "\(line)")
  }
}
