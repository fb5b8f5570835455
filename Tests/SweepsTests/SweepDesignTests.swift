import Reports
import ScenarioFiles
import TestSupport
import Testing

@testable import Sweeps

/// Sweeps whose points are named designs (`points: [{label, set}]`), ranked by what the phone pays.
@Suite("Designs compared by name and by what the phone pays")
struct SweepDesignTests {
  /// Scenarios/sweep-update-channel.yaml's scenario (its own sweep section replaced by `sweep`), over `days`.
  static func updateChannel(_ sweep: String, days: Int, device: String? = nil) throws -> String {
    let text = try TestFiles.read(Repository.path("Scenarios/sweep-update-channel.yaml"))
    var base = try #require(text.components(separatedBy: "\nsweep:\n").first)
    if let device { base += "\ndevice: \(device)\n" }
    let lines = base.split(separator: "\n", omittingEmptySubsequences: false).map {
      $0.hasPrefix("days:") ? "days: \(days)" : String($0)
    }
    let path = TestFiles.temporaryDirectory() + "/designs.yaml"
    try AtomicFile.write(lines.joined(separator: "\n") + "\nsweep:\n" + sweep, to: path)
    return path
  }

  static let pollingAndSilentPush = """
      points:
        - label: poll 15m
          set:
            widgets[headlines].timeline.after: 15m
            widgets[headlines].build.fetch.probability: 1
            widgets[headlines].data.on_change: none
        - label: silent push
          set:
            widgets[headlines].timeline.after: 1h
            widgets[headlines].build.fetch.probability: 0
            widgets[headlines].data.on_change: silent_push
      replications: 3
    """

  /// sweep_summary.csv's mean of `metric` of `widget` at each point, by point.
  static func means(_ directory: String, _ metric: String, _ widget: String) throws -> [Int: Double] {
    let lines = CSVLines.parse(try TestFiles.read("\(directory)/sweep_summary.csv"))
    let header = try #require(lines.first)
    let (point, metricColumn, widgetColumn, mean) = (
      try #require(header.firstIndex(of: "point")), try #require(header.firstIndex(of: "metric")),
      try #require(header.firstIndex(of: "widget")), try #require(header.firstIndex(of: "mean"))
    )
    var found: [Int: Double] = [:]
    for cells in lines.dropFirst() where cells[metricColumn] == metric && cells[widgetColumn] == widget {
      found[Int(cells[point]) ?? -1] = Double(cells[mean])
    }
    return found
  }

  @Test(
    "polling vs silent push: the widget alone ranks silent push cheaper, the phone's whole cost (the app's runs and push wake-ups added) ranks it dearer, and the console ranks by the phone"
  )
  func phoneCostReversesTheRanking() throws {
    // On Wi-Fi all day: with half the hours on LTE (the files' default) the order turns again (below).
    let sweep = try SweepLoader.load(
      path: try Self.updateChannel(Self.pollingAndSilentPush, days: 3, device: "{network: {default: wifi}}"))
    let directory = TestFiles.temporaryDirectory() + "/sweep"
    let printed = Printed()
    #expect(
      try SweepExecution(sweep, overrides: [], directory: directory, jobs: 2).run(
        console: printed.console, stop: .never))

    let widgetAlone = try Self.means(directory, "joules_per_day", "headlines")
    let phone = try Self.means(directory, "phone_joules_per_day", "device")
    let (poll, push) = (0, 1)
    #expect(try #require(widgetAlone[push]) < #require(widgetAlone[poll]), "\(widgetAlone)")
    #expect(try #require(phone[push]) > #require(phone[poll]), "\(phone)")
    // The phone's cost is every subject's energy but the device's own: the widget, the app's runs, pushes.
    let app = try Self.means(directory, "joules_per_day", "app")
    #expect(try #require(app[push]) > 0)
    for point in [poll, push] {
      var parts = 0.0
      for subject in ["headlines", "widget_push", "app"] {
        parts += try Self.means(directory, "joules_per_day", subject)[point] ?? 0
      }
      #expect(abs(parts - (phone[point] ?? 0)) < 1e-3, "point \(point): \(parts) vs \(phone[point] ?? 0)")
      let widgets = try Self.means(directory, "widgets_joules_per_day", "device")[point]
      #expect(widgets == phone[point], "the old name keeps its value")
    }

    let lines = printed.output.text.split(separator: "\n").map(String.init)
    let ranking = try #require(
      lines.firstIndex(
        of: "what the phone pays a day (widgets, the app's own runs, push wake-ups, radio), cheapest first:"))
    #expect(lines[ranking + 1].hasPrefix("  1. \"poll 15m\" (point 0): "), "\(lines[ranking + 1])")
    #expect(lines[ranking + 2].hasPrefix("  2. \"silent push\" (point 1): "), "\(lines[ranking + 2])")
    #expect(lines.contains { $0.hasPrefix("  point 1 \"silent push\" (widgets[headlines].timeline.after=1h, ") })
    #expect(lines.contains { $0.hasPrefix("    headlines: ") && $0.contains(", energy (widget alone) ") })

    // The comparison table, in point order, with the phone's cost first.
    let table = try TestFiles.read("\(directory)/\(SweepComparison.file)")
    let rows = table.split(separator: "\n").map(String.init)
    #expect(
      rows.first
        == "| point | design | phone mWh/day | % battery/day | staleness mean (s) | staleness p95 (s) | "
        + "server requests received/phone/day | pushes sent/phone/day |")
    #expect(rows.count == 4)
    #expect(rows[2].hasPrefix("| 0 | poll 15m | "))
    #expect(rows[3].hasPrefix("| 1 | silent push | "))
    let mwh = try Self.means(directory, "phone_mwh_per_day", "device")
    #expect(rows[3].contains("| \(RunSummaryText.fixed(try #require(mwh[push]), 2)) ["), "\(rows[3])")
    #expect(lines.suffix(5).dropLast() == rows.suffix(4), "the console prints the table")
  }

  @Test("the ranking rests on the network: with LTE half the hours (the default), silent push is the cheaper")
  func networkTurnsTheRanking() throws {
    let sweep = try SweepLoader.load(path: try Self.updateChannel(Self.pollingAndSilentPush, days: 3))
    let directory = TestFiles.temporaryDirectory() + "/sweep"
    let printed = Printed()
    #expect(
      try SweepExecution(sweep, overrides: [], directory: directory, jobs: 2).run(
        console: printed.console, stop: .never))
    let phone = try Self.means(directory, "phone_joules_per_day", "device")
    let (poll, push) = (0, 1)
    // Every LTE fetch wakes a radio with a 10 s tail at 1.06 W: polling's four an hour cost more than the
    // pushes' wake-ups and the app's fetch per story.
    #expect(try #require(phone[push]) < #require(phone[poll]), "\(phone)")
    let lines = printed.output.text.split(separator: "\n").map(String.init)
    #expect(lines.contains { $0.hasPrefix("  1. \"silent push\" (point 1): ") }, "\(printed.output.text)")
    // The assumption it rests on is printed beside the ranking.
    let assumptions: String =
      "assumptions: network Wi-Fi 50% of hours, else LTE (device.network, the default: a panel's share of time "
      + "on Wi-Fi, low confidence); battery 12.98 Wh (linear), Low Power Mode below 20% (device.battery, "
      + "device.low_power_mode); the app in the background: no background refresh, dormant 3.0 days after "
      + "its last launch (app) (every point)"
    #expect(lines.contains(assumptions), "\(printed.output.text)")
  }

  /// Labels with a comma and with a formula's first character, crossed with another axis.
  static let labelled = """
      points:
        - label: "poll, every 15m"
          set:
            widgets[headlines].timeline.after: 15m
        - label: "+hourly"
          set:
            widgets[headlines].timeline.after: 1h
      parameters:
        budget.per_day.max: [40, 70]
    """

  @Test("labels reach point_label in sweep.csv, sweep_summary.csv and the manifest; shards merge to the same bytes")
  func labelsRoundTrip() throws {
    let path = try sweepFile(Self.labelled)
    let sweep = try SweepLoader.load(path: path, overrides: [try ScenarioOverride("replications=2")])
    let labels = [
      "poll, every 15m, budget.per_day.max=40", "poll, every 15m, budget.per_day.max=70",
      "+hourly, budget.per_day.max=40", "+hourly, budget.per_day.max=70",
    ]
    #expect(sweep.points.map(\.label) == labels)
    #expect(sweep.points[2].settings == "widgets[headlines].timeline.after=1h, budget.per_day.max=40")

    let whole = TestFiles.temporaryDirectory() + "/whole"
    try SweepExecution(sweep, overrides: ["replications=2"], directory: whole, quiet: true)
      .run(console: Printed().console, stop: .never)
    for name in ["sweep.csv", "sweep_summary.csv"] {
      let lines = CSVLines.parse(try TestFiles.read("\(whole)/\(name)"))
      #expect(lines.first?.prefix(2) == ["point", "point_label"], "\(name)")
      var seen: [String: String] = [:]
      for cells in lines.dropFirst() { seen[cells[0]] = cells[1] }
      // A spreadsheet would read "+hourly" as a formula: the cell carries a ' before it, as every text cell.
      #expect(seen == ["0": labels[0], "1": labels[1], "2": "'" + labels[2], "3": "'" + labels[3]], "\(name)")
    }
    let manifest = try #require(try SweepManifest(directory: whole))
    #expect(manifest.grid.first?.labels == ["poll, every 15m", "+hourly"])
    #expect(manifest.grid.dropFirst().first?.labels == nil)

    let merged = try shardedAndMerged(sweep, shards: 2)
    for name in SweepReports.files + [SweepManifest.file] {
      #expect(try TestFiles.read("\(merged)/\(name)") == TestFiles.read("\(whole)/\(name)"), "\(name)")
    }
    #expect(
      try TestFiles.read("\(whole)/\(SweepComparison.file)").contains("\n| 2 | +hourly, budget.per_day.max=40 | "))
  }

  @Test("bad points are refused with their file, line, column and key: a repeated or empty label, keys that differ")
  func badPoints() throws {
    let point = { (label: String, key: String, value: String) in
      "    - label: \(label)\n      set:\n        \(key): \(value)\n"
    }
    let after = "widgets[headlines].timeline.after"
    let cases: [(String, String, String)] = [
      (
        point("poll", after, "15m") + point("poll", after, "1h"), "sweep.points[1].label",
        "label 'poll' is already used by sweep.points[0]"
      ),
      (point("\"  \"", after, "15m"), "sweep.points[0].label", "a point's label must not be empty"),
      (
        point("a", after, "15m") + point("b", "budget.per_day.max", "40"), "sweep.points[1].set.budget.per_day.max",
        "'budget.per_day.max' is not set by the first point"
      ),
      (
        point("a", after, "15m") + "    - label: b\n      set:\n        budget.per_day.max: 40\n        \(after): 1h\n",
        "sweep.points[1].set.budget.per_day.max", "is not set by the first point"
      ),
      ("    - {set: {budget.per_day.max: 40}}\n", "sweep.points[0].label", "missing required key 'label'"),
      ("    - label: a\n", "sweep.points[0].set", "missing required key 'set'"),
      ("    {}\n", "sweep.points", "expected a list"),
    ]
    for (entries, keyPath, message) in cases {
      let path = try sweepFile("  points:\n" + entries)
      let error = try #require(throws: ScenarioError.self) { try SweepLoader.load(path: path) }
      #expect(error.message.contains(message), "\(error)")
      #expect(error.keyPath == keyPath, "\(error)")
      #expect(error.line != nil && error.column != nil, "\(error)")
      #expect(error.description.hasPrefix("\(path):\(error.line ?? 0):\(error.column ?? 0)"), "\(error)")
    }
    // A repeated label is reported where it is written a second time.
    let text = "  points:\n" + point("poll", after, "15m") + point("poll", after, "1h")
    let path = try sweepFile(text)
    let error = try #require(throws: ScenarioError.self) { try SweepLoader.load(path: path) }
    let lines = try TestFiles.read(path).split(separator: "\n", omittingEmptySubsequences: false)
    let second = try #require(lines.indices.filter { lines[$0].contains("- label: poll") }.last)
    #expect(error.line == second + 1, "\(error)")
  }

  @Test("a long sweep: the ranking and the console's table show 20 points and say where the rest are")
  func longSweep() throws {
    let points: [SweepPointRow] = (0..<25).map { ($0, "design \($0)", ["\($0)m"]) }
    var rows: [SweepSummaryRow] = []
    for point in points {
      // The later the point, the cheaper for the phone.
      rows.append(
        SweepSummaryRow(
          point: point.index, metric: "phone_mwh_per_day", widget: "device", mean: Double(25 - point.index),
          interval: (0, 30), unit: "mWh/day"))
      rows.append(
        SweepSummaryRow(
          point: point.index, metric: "reloads_per_day", widget: "w", mean: 10, interval: nil, unit: "reloads/day"))
    }
    let lines = SweepExecution.finishedLines(
      rows: rows, points: points, keys: ["k"], objective: nil, directory: "out", baselinePoint: nil)
    let ranking = try #require(lines.firstIndex { $0.hasPrefix("what the phone pays a day") })
    #expect(lines[ranking + 1] == "  1. \"design 24\" (point 24): 1.00 [0.00, 30.00] mWh/day")
    #expect(lines[ranking + 20].hasPrefix("  20. \"design 5\" (point 5): "))
    #expect(lines[ranking + 21] == "  (5 more in sweep_compare.md)")
    let table = try #require(lines.firstIndex { $0.hasPrefix("comparison (sweep_compare.md") })
    #expect(
      lines[table + 1]
        == "| point | design | phone mWh/day | % battery/day | staleness mean (s) | staleness p95 (s) | server requests received/phone/day | pushes sent/phone/day |"
    )
    #expect(lines[table + 3] == "| 0 | design 0 | 25.00 [0.00, 30.00] | - | - | - | - | - |")
    #expect(lines[table + 22] == "| 19 | design 19 | 6.00 [0.00, 30.00] | - | - | - | - | - |")
    #expect(lines[table + 23] == "(5 more rows in sweep_compare.md)")
    #expect(lines.last == "reports: out/ (sweep.csv, sweep_summary.csv, sweep_compare.md)")
    let markdown = SweepComparison.markdown(rows: rows, points: points, keys: ["k"])
    #expect(markdown.split(separator: "\n").count == 27, "the file has every point")
  }
}
