import Reports
import TestSupport
import Testing

/// report.html of a sweep whose points are named designs, read from the Vega-Lite specifications it embeds.
@Suite("report.html compares named designs: categorical axis, the phone's cost, server requests for N users")
struct SweepDesignReportTests {
  static let labels = [
    "poll 15m", "poll 1h", "background refresh", "silent push", "WidgetKit push", "WidgetKit push + background refresh",
    "silent push + background refresh",
  ]

  /// The page's charts by id, in page order.
  static func charts(_ page: String) throws -> [(id: String, spec: JSONValue)] {
    let start = try #require(page.firstRange(of: "<script type=\"application/json\" id=\"chart-specs\">"))
    let end = try #require(page[start.upperBound...].firstRange(of: "</script>"))
    let specs = try JSONValue.parse(String(page[start.upperBound..<end.lowerBound]))
    return (specs.elements).compactMap { chart in
      guard let id = chart["id"]?.scalarText, let spec = chart["spec"] else { return nil }
      return (id, spec)
    }
  }

  static func number(_ value: JSONValue?) -> Double? { value?.scalarText.flatMap { Double($0) } }

  @Test("sweep-update-channel with --report --users: designs in the listed order without lines, the phone's cost first")
  func designsReport() throws {
    let directory = TestFiles.temporaryDirectory() + "/designs"
    let run = try Subprocess.run([
      "sweep", Repository.path("Scenarios/sweep-update-channel.yaml"), "--days", "2", "--replications", "2",
      "--out", directory, "--report", "--users", "2000000",
    ])
    #expect(run.code == 0, "\(run.output)")
    let page = try TestFiles.read("\(directory)/report.html")
    let charts = try Self.charts(page)
    #expect(
      charts.prefix(3).map(\.id) == ["sweep-phone_mwh_per_day-device", "sweep-pareto", "sweep-server-requests"])

    // The file's select section adds its charts last (SelectionChartsTests checks them).
    #expect(charts.suffix(2).map(\.id) == ["selection-map", "selection-elimination"])
    // Every chart but the Pareto front's (cost on x, staleness on y) and the selection's puts the designs on x.
    for (id, spec) in charts where id != "sweep-pareto" && !id.hasPrefix("selection-") {
      let layers = spec["layer"]?.elements ?? []
      #expect(!layers.contains { $0["name"]?.scalarText == "line" }, "\(id): no line joins one design to the next")
      let x = layers.first?["encoding"]?["x"]
      #expect(x?["field"]?.scalarText == "design" && x?["type"]?.scalarText == "nominal", "\(id)")
      #expect(x?["sort"]?.elements.compactMap(\.scalarText) == Self.labels, "\(id)")
    }
    let phone = try #require(charts.first?.spec)
    let designs = (phone["data"]?["values"]?.elements ?? []).compactMap { $0["design"]?.scalarText }
    #expect(designs == Self.labels)

    // A part of the phone's cost in mWh/day, as the phone's cost: a design without WidgetKit pushes shows 0
    // for them, not a gap.
    #expect(!charts.contains { $0.id.contains("joules") }, "\(charts.map(\.id))")
    let pushes = try #require(charts.first { $0.id.hasPrefix("sweep-mwh_per_day-") && $0.id.contains("push") })
    let values = pushes.spec["data"]?["values"]?.elements ?? []
    var means: [String: Double] = [:]
    for value in values {
      if let design = value["design"]?.scalarText { means[design] = Self.number(value["mean"]) }
    }
    #expect(Set(means.keys) == Set(Self.labels), "\(pushes.id): \(means)")
    for label in ["poll 15m", "poll 1h", "background refresh", "silent push"] { #expect(means[label] == 0, "\(label)") }
    #expect((means["WidgetKit push"] ?? 0) > 0)

    // Server requests: received and sent apart, per phone on the left, for 2,000,000 users on the right.
    let server = try #require(charts.dropFirst(2).first?.spec)
    let layers = server["layer"]?.elements ?? []
    #expect(
      layers.compactMap { $0["name"]?.scalarText }
        == ["received_interval", "received", "sent_interval", "sent", "users"])
    let left = try #require(Self.number(layers[1]["encoding"]?["y"]?["scale"]?["domain"]?.elements.last))
    let right = try #require(Self.number(layers[4]["encoding"]?["y"]?["scale"]?["domain"]?.elements.last))
    #expect(abs(right - left * 2_000_000) <= 1e-6 * right, "the two axes read the same marks")
    for value in layers[4]["data"]?["values"]?.elements ?? [] {
      let mean = try #require(Self.number(value["mean"]))
      #expect(Self.number(value["users_mean"]) == mean * 2_000_000)
    }
    #expect(page.contains("Server requests per phone a day and for 2,000,000 users"))

    // The table: a design column, one line per cell, scrolling sideways in its frame.
    #expect(page.contains("<table class=\"sweep-points\"><thead><tr><th>point</th><th>design</th>"))
    #expect(page.contains("table.sweep-points th, table.sweep-points td { white-space: nowrap; }"))
    for label in Self.labels { #expect(page.contains("<td>\(label)</td>"), "\(label)") }

    // Without --users, one phone has no second axis, and the caption says how to get one.
    let again = try Subprocess.run(["report", directory])
    #expect(again.code == 0, "\(again.output)")
    let single = try Self.charts(try TestFiles.read("\(directory)/report.html"))
    let names = single.first { $0.id == "sweep-server-requests" }?.spec["layer"]?.elements.compactMap {
      $0["name"]?.scalarText
    }
    #expect(names == ["received_interval", "received", "sent_interval", "sent"])
  }

  @Test("a repeated label is refused with exit 2, naming the file, line, column and key")
  func repeatedLabel() throws {
    let directory = TestFiles.temporaryDirectory()
    let path = "\(directory)/repeated.yaml"
    let text = try TestFiles.read(Repository.path("Scenarios/sweep-update-channel.yaml"))
      .replacing("- label: poll 1h", with: "- label: poll 15m")
    try AtomicFile.write(text, to: path)
    let run = try Subprocess.run(["sweep", path, "--out", directory + "/out"])
    #expect(run.code == 2, "\(run.output)")
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let line = try #require(lines.indices.filter { lines[$0].contains("- label: poll 15m") }.last) + 1
    #expect(run.output.contains("\(path):\(line):"), "\(run.output)")
    #expect(run.output.contains("sweep.points[1].label"), "\(run.output)")
    #expect(run.output.contains("label 'poll 15m' is already used by sweep.points[0]"), "\(run.output)")
  }
}
