import Reports
import TestSupport
import Testing

/// report.html of a sweep of fleets: the servers' busiest second and p99 by design, and captions that claim
/// only the intervals the charts draw.
@Suite("report.html of a sweep of fleets: the servers per second by design, and honest interval captions")
struct SweepCapacityReportTests {
  /// Two designs of Scenarios/sweep-update-channel.yaml (poll 15m, silent push: the first and fourth points).
  static func sweepFile() throws -> String {
    let text = try TestFiles.read(Repository.path("Scenarios/sweep-update-channel.yaml"))
    let parts = text.split(separator: "\nsweep:\n  points:\n", omittingEmptySubsequences: false)
    let (base, points) = (try #require(parts.first), try #require(parts.last))
    let designs = points.split(separator: "    - label: ", omittingEmptySubsequences: false)
    let chosen = try #require(designs.count > 4 ? [designs[1], designs[4]] : nil)
    let path = TestFiles.temporaryDirectory() + "/designs.yaml"
    try AtomicFile.write(
      String(base) + "\nsweep:\n  points:\n" + chosen.map { "    - label: " + $0 }.joined(), to: path)
    return path
  }

  /// Each figure of the page: its chart id, caption, y axis titles and the marks its interval layers draw.
  static func figures(_ page: String) throws -> [(id: String, caption: String, axes: [String], intervals: Int)] {
    let specs = try SweepDesignReportTests.charts(page)
    return try page.split(separator: "<figure id=\"figure-", omittingEmptySubsequences: false).dropFirst().map {
      figure in
      let id = String(figure.prefix { $0 != "\"" })
      let marks = try #require(figure.firstMatch(of: /data-expected-marks="([^"]*)"/)?.1)
      let intervals = marks.split(separator: " ").reduce(0) { sum, entry in
        let parts = entry.split(separator: ":")
        return sum + (parts.first?.contains("interval") == true ? Int(parts.last ?? "") ?? 0 : 0)
      }
      let caption = try #require(figure.firstMatch(of: /<p class="caption">([^<]*)<\/p>/)?.1)
      let layers = specs.first { $0.id == id }?.spec["layer"]?.elements ?? []
      let axes = layers.compactMap { $0["encoding"]?["y"]?["title"]?.scalarText }
      return (id, String(caption), axes, intervals)
    }
  }

  @Test(
    "one replication of every phone: the per-second charts draw no interval and no chart says 95%; one of a sample: the sample's interval; two: the CI",
    arguments: [(1, 40, "none"), (1, 4_000, "sample"), (2, 4_000, "t")])
  func captions(replications: Int, represents: Int, expected: String) throws {
    let directory = TestFiles.temporaryDirectory() + "/out"
    let run = try Subprocess.run([
      "sweep", try Self.sweepFile(), "--days", "1", "--replications", "\(replications)", "--devices", "40", "--set",
      "fleet.represents=\(represents)", "--out", directory, "--report",
    ])
    #expect(run.code == 0, "\(run.output)")
    let page = try TestFiles.read("\(directory)/report.html")
    let figures = try Self.figures(page)
    // The points' table has the figures too, and its headers name an interval only where there is one.
    #expect(page.contains("<th>peak_requests_per_second<br><span class=\"muted\">received, requests/s, mean"))
    #expect(page.contains("<th>p99_requests_per_second<br><span class=\"muted\">sent, requests/s, mean"))
    if expected == "none" { #expect(!page.contains("95%"), "nothing on the page claims an interval") }
    #expect(figures.contains { $0.id == "sweep-capacity-peak" } && figures.contains { $0.id == "sweep-capacity-p99" })
    for figure in figures {
      // The rule: a caption or an axis that names a 95% interval is on a chart that draws one.
      let claims = (figure.axes + [figure.caption]).contains { $0.contains("95%") }
      #expect(claims == (figure.intervals > 0), "\(figure)")
      if figure.intervals == 0 { #expect(figure.caption.contains("no interval"), "\(figure)") }
      guard figure.id.hasPrefix("sweep-capacity") else { continue }
      switch expected {
      case "none": #expect(figure.intervals == 0, "\(figure)")
      case "sample":
        #expect(figure.intervals > 0 && figure.caption.contains("the sample&#39;s 95% interval"), "\(figure)")
      default: #expect(figure.intervals > 0 && figure.caption.contains("95% confidence interval"), "\(figure)")
      }
    }
  }
}
