import Reports
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// report.html rendered in a real browser: headless Chromium (Debian's `chromium`, installed by
/// scripts/test) draws each page at 1280 px and at 400 px; every chart must draw exactly the marks its
/// data calls for, with no error on the page or the console and no sideways scrolling.
@Suite("report.html in Chromium", .serialized, .slow("a headless browser renders every page"))
struct ReportPageTests {
  static let chromium = "/usr/bin/chromium"

  /// What Chromium made of a page: the DOM after the scripts ran, and its console lines.
  struct Rendered {
    let dom: String
    let console: [String]
  }

  static func render(_ page: String, width: Int, dark: Bool = false) throws -> Rendered {
    try #require(access(chromium, X_OK) == 0, "no \(chromium): run scripts/test, which installs Debian's chromium")
    let folder = TestFiles.temporaryDirectory()
    var arguments = [
      "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--enable-logging=stderr", "--v=0",
      "--window-size=\(width),1200", "--virtual-time-budget=20000", "--dump-dom", "file://\(page)",
    ]
    if dark { arguments.insert("--force-dark-mode", at: 0) }
    let code = Subprocess.wait(
      Subprocess.start(program: chromium, arguments, output: "\(folder)/dom.html", errors: "\(folder)/log.txt"))
    #expect(code == 0, "chromium exited \(code)")
    let log = try TestFiles.read("\(folder)/log.txt")
    return Rendered(
      dom: try TestFiles.read("\(folder)/dom.html"),
      console: log.split(separator: "\n").map(String.init).filter { $0.contains(":CONSOLE") })
  }

  /// Checks one rendered page; returns the chart ids it found.
  @discardableResult
  static func expectDrawn(_ rendered: Rendered, _ context: String) -> [String] {
    let dom = rendered.dom
    #expect(dom.contains("data-rendered=\"true\""), "\(context): the charts did not finish drawing")
    #expect(dom.contains("data-overflow=\"false\""), "\(context): the page is wider than the window")
    #expect(dom.contains("<ul id=\"errors\" hidden=\"\"></ul>"), "\(context): the page listed errors")
    #expect(rendered.console.isEmpty, "\(context): console: \(rendered.console.joined(separator: "\n"))")
    var ids: [String] = []
    for figure in SVGMarks.figures(dom) {
      ids.append(figure.id)
      #expect(figure.body.contains("<svg"), "\(context): \(figure.id) drew no SVG")
      for (layer, expected) in figure.expected {
        let drawn = SVGMarks.count(in: figure.body, layer: layer)
        #expect(drawn == expected, "\(context): \(figure.id) layer \(layer) drew \(drawn) marks, data has \(expected)")
      }
      let main = figure.expected.first?.count ?? 0
      #expect(main > 0, "\(context): \(figure.id) has no data")
      #expect(figure.body.contains("role-axis-title"), "\(context): \(figure.id) has no axis titles")
    }
    #expect(dom.contains("<table>"), "\(context): no summary table")
    #expect(dom.contains("95% CI"), "\(context): the summary table has no confidence intervals")
    return ids
  }

  static func expectScreenshot(_ page: String, width: Int) throws {
    let shot = TestFiles.temporaryDirectory() + "/shot.png"
    let arguments = [
      "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=\(width),1600",
      "--virtual-time-budget=20000", "--screenshot=\(shot)", "file://\(page)",
    ]
    let code = Subprocess.wait(Subprocess.start(program: chromium, arguments, output: "/dev/null", errors: "/dev/null"))
    #expect(code == 0)
    let bytes = try TestFiles.read(shot)
    #expect(bytes.utf8.count > 10_000, "screenshot too small to hold the charts")
    #expect(bytes.utf8.starts(with: [0x89, 0x50, 0x4E, 0x47]) || bytes.hasPrefix("\u{FFFD}PNG"), "not a PNG")
  }

  @Test("the quickstart run's report: every chart drawn with one mark per data point, at 1280 px, 400 px, and dark")
  func runReport() throws {
    let directory = TestFiles.temporaryDirectory() + "/quickstart"
    let run = try Subprocess.run(["run", Repository.path("Scenarios/quickstart.yaml"), "--out", directory, "--report"])
    #expect(run.code == 0, "\(run.output)")
    #expect(run.output.contains("report: \(directory)/report.html"))
    let page = "\(directory)/report.html"
    let ids = Self.expectDrawn(try Self.render(page, width: 1280), "quickstart at 1280 px")
    #expect(
      ids == ["reloads-by-cause", "reloads-by-outcome", "budget", "staleness", "energy", "battery", "app-wakes"])
    Self.expectDrawn(try Self.render(page, width: 400), "quickstart at 400 px")
    // Dark mode: the same marks, with light text (Vega's dark theme) instead of black.
    let light = try Self.render(page, width: 1280)
    let dark = try Self.render(page, width: 1280, dark: true)
    Self.expectDrawn(dark, "quickstart in dark mode")
    #expect(light.dom.contains("fill=\"#000\"") && !light.dom.contains("fill=\"#fff\""))
    #expect(dark.dom.contains("fill=\"#fff\"") && !dark.dom.contains("fill=\"#000\""))
    try Self.expectScreenshot(page, width: 1280)
  }

  @Test("Live Activities get a staleness chart; controls and activities are named as such in the staleness legend")
  func surfacesReport() throws {
    let flights = TestFiles.temporaryDirectory() + "/flights"
    let run = try Subprocess.run([
      "run", Repository.path("Scenarios/flight-tracker.yaml"), "--days", "3", "--replications", "2", "--out", flights,
      "--report", "--quiet",
    ])
    #expect(run.code == 0, "\(run.output)")
    let rendered = try Self.render("\(flights)/report.html", width: 1280)
    let ids = Self.expectDrawn(rendered, "flight-tracker")
    #expect(ids.contains("activity-staleness"))
    #expect(rendered.dom.contains("flight (Live Activity)"))
    let home = TestFiles.temporaryDirectory() + "/home"
    let controls = try Subprocess.run([
      "run", Repository.path("Scenarios/smart-home-controls.yaml"), "--days", "2", "--replications", "2", "--out",
      home, "--report", "--quiet",
    ])
    #expect(controls.code == 0, "\(controls.output)")
    let page = try Self.render("\(home)/report.html", width: 1280)
    Self.expectDrawn(page, "smart-home-controls")
    #expect(page.dom.contains("door@control_center (control)"))
  }

  @Test("a fleet run's report adds server load per minute with its peak marked, and its busiest second by stream")
  func fleetReport() throws {
    let directory = TestFiles.temporaryDirectory() + "/fleet"
    let run = try Subprocess.run([
      "run", Repository.path("Scenarios/fleet-capacity.yaml"), "--devices", "40", "--days", "2", "--replications", "2",
      "--out", directory, "--report", "--quiet",
    ])
    #expect(run.code == 0, "\(run.output)")
    let rendered = try Self.render("\(directory)/report.html", width: 1280)
    let ids = Self.expectDrawn(rendered, "fleet")
    #expect(ids.suffix(2) == ["server-load", "server-peak"])
    try Self.expectFleetLayout(rendered, page: try TestFiles.read("\(directory)/report.html"))
    // Dark mode: the peak's label is light, as the axes are.
    let dark = try Self.render("\(directory)/report.html", width: 1280, dark: true)
    Self.expectDrawn(dark, "fleet in dark mode")
    let label = try #require(Self.peakLabel(dark.dom))
    #expect(label.contains("fill=\"#e6e6e9\""), "peak label in dark mode: \(label)")
    Self.expectDrawn(try Self.render("\(directory)/report.html", width: 400), "fleet at 400 px")
  }

  /// The `<text>` Vega drew for the server-load chart's peak label.
  static func peakLabel(_ dom: String) -> Substring? {
    guard let group = dom.firstRange(of: "peak_label_marks") else { return nil }
    let rest = dom[group.upperBound...]
    guard let start = rest.firstRange(of: "<text"), let end = rest.firstRange(of: "</text>") else { return nil }
    return rest[start.lowerBound..<end.upperBound]
  }

  /// Issue 23, item 6: the server-load chart spans the page, its peak label is short and drawn on the side
  /// with room (not cut at the plot's edge), large numbers have thousands separators, and the device, fleet
  /// and server summary tables are open.
  static func expectFleetLayout(_ rendered: Rendered, page: String) throws {
    let figure = try #require(SVGMarks.figures(rendered.dom).first { $0.id == "server-load" })
    #expect(rendered.dom.contains("<figure id=\"figure-server-load\" class=\"wide\""))
    let width = figure.body.firstRange(of: "<svg").flatMap { svg in
      figure.body[svg.upperBound...].firstRange(of: "width=\"").map {
        Int(figure.body[$0.upperBound...].prefix { $0.isNumber }) ?? 0
      }
    }
    #expect((width ?? 0) > 1_000, "server-load is \(width ?? 0) px wide at 1280 px: not the page's width")
    let label = try #require(peakLabel(rendered.dom))
    #expect(label.contains(">peak ") && label.contains("/min</text>"), "\(label)")
    // The title has the day and time; every large number in it is grouped by thousands.
    let title = try #require(
      rendered.dom.firstRange(of: "<h2>Server load: peak ").map { rendered.dom[$0.upperBound...].prefix { $0 != " " } })
    #expect(title.split(separator: ",").allSatisfy { $0.count <= 3 }, "no thousands separators: \(title)")
    #expect(label.contains(">peak \(title)/min<"), "\(label)")
    for subject in ["device", "fleet", "server"] {
      #expect(page.contains("<details open><summary>\(subject)</summary>"), "\(subject)'s table is closed")
    }
  }

  @Test("the sweep example's report, and the same charts from a folder merged from shards")
  func sweepReport() throws {
    let root = TestFiles.temporaryDirectory()
    let sweep = [
      "sweep", Repository.path("Scenarios/sweep-refresh-interval.yaml"), "--days", "5", "--replications", "3",
      "--quiet",
    ]
    let whole = try Subprocess.run(sweep + ["--out", "\(root)/whole", "--report"])
    #expect(whole.code == 0, "\(whole.output)")
    let ids = Self.expectDrawn(try Self.render("\(root)/whole/report.html", width: 1280), "sweep")
    // One chart per headline metric and subject: what the phone pays, the points on cost against staleness,
    // the widget's six, and the app's energy and battery share.
    #expect(ids.count == 10, "one chart per headline metric and subject: \(ids)")
    #expect(ids.dropFirst().first == "sweep-pareto", "\(ids)")
    #expect(ids.first == "sweep-phone_mwh_per_day-device", "the phone's cost comes first: \(ids)")
    try Self.expectSweepReads(try Self.render("\(root)/whole/report.html", width: 1280))
    Self.expectDrawn(try Self.render("\(root)/whole/report.html", width: 400), "sweep at 400 px")
    try Self.expectScreenshot("\(root)/whole/report.html", width: 1280)

    for shard in 0..<2 {
      let part = try Subprocess.run(sweep + ["--shard", "\(shard)/2", "--out", "\(root)/shard-\(shard)"])
      #expect(part.code == 0, "\(part.output)")
    }
    let merge = try Subprocess.run(["merge", "\(root)/shard-0", "\(root)/shard-1", "--out", "\(root)/merged"])
    #expect(merge.code == 0, "\(merge.output)")
    let report = try Subprocess.run(["report", "\(root)/merged"])
    #expect(report.code == 0, "\(report.output)")
    Self.expectDrawn(try Self.render("\(root)/merged/report.html", width: 1280), "merged sweep")
    let specs = { (path: String) throws -> String in
      let page = try TestFiles.read(path)
      guard let start = page.firstRange(of: "id=\"chart-specs\">"), let end = page.firstRange(of: "</script>")
      else { return "" }
      return String(page[start.upperBound..<end.lowerBound])
    }
    #expect(try specs("\(root)/merged/report.html") == specs("\(root)/whole/report.html"))
  }

  /// Issue 23, item 4: the page shows the manifest's scenario, seed, overrides and grid; a swept duration is a
  /// numeric axis labelled as written; the other key is one legend entry per setting.
  static func expectSweepReads(_ rendered: Rendered) throws {
    let dom = rendered.dom
    for fact in [
      "<dt>scenario</dt><dd>\(Repository.path("Scenarios/sweep-refresh-interval.yaml"))</dd>",
      "<dt>seed</dt><dd>42</dd>",
      "<dt>swept</dt><dd>widgets[headlines].timeline.after: 5m, 10m, 15m, 30m, 60m</dd>",
      "<dt>swept</dt><dd>budget.per_day.max: 40, 70</dd>", "<dt>days</dt><dd>5</dd>",
    ] {
      #expect(dom.contains(fact), "\(fact) missing")
    }
    #expect(dom.contains("<dt>overrides</dt><dd>") && dom.contains("days=5"))
    #expect(dom.contains("\"title\":\"widgets[headlines].timeline.after (s)\""), "the x axis is not in seconds")
    for tick in [">5m</text>", ">60m</text>", ">budget.per_day.max = 40</text>", ">budget.per_day.max = 70</text>"] {
      #expect(dom.contains(tick), "\(tick) not drawn")
    }
  }

  @Test("a sweep of keys in lockstep: one legend entry per setting, the x axis numbered as the page lists them")
  func lockstepSweepReport() throws {
    let directory = TestFiles.temporaryDirectory() + "/designs"
    // Scenarios/sweep-update-channel.yaml's designs as keys in lockstep, without labels.
    let text = try TestFiles.read(Repository.path("Scenarios/sweep-update-channel.yaml"))
    let base = try #require(text.split(separator: "\nsweep:\n", maxSplits: 1).first)
    let file = TestFiles.temporaryDirectory() + "/lockstep.yaml"
    try AtomicFile.write(
      base + """

        sweep:
          lockstep:
            - widgets[headlines].timeline.after: [15m, 1h, 1h, 1h, 1h, 1h, 1h]
              widgets[headlines].build.fetch.probability: [1, 1, 0, 0, 1, 1, 0]
              widgets[headlines].data.on_change: [none, none, reload_kind, silent_push, push, "[push, reload_kind]", silent_push]
              app.background_refresh: ["off", "off", "{interval: 15m}", "off", "off", "{interval: 15m}", "{interval: 15m}"]

        """, to: file)
    let sweep = try Subprocess.run([
      "sweep", file, "--days", "1", "--replications", "2", "--out", directory, "--report", "--quiet",
    ])
    #expect(sweep.code == 0, "\(sweep.output)")
    let rendered = try Self.render("\(directory)/report.html", width: 1280)
    Self.expectDrawn(rendered, "lockstep sweep")
    #expect(rendered.dom.contains("<dt>swept in lockstep</dt><dd>widgets[headlines].timeline.after / "))
    #expect(rendered.dom.contains("#0 15m / 1 / none / off; #1 1h / 1 / none / off"))
    for setting in 0..<7 { #expect(rendered.dom.contains(">#\(setting)</text>"), "#\(setting) not on the x axis") }
    // One series (the widget): the keys moving together are not spread over the legend.
    #expect(!rendered.dom.contains("widgets[headlines].build.fetch.probability=1"))
    #expect(rendered.dom.contains(">headlines</text>"))
  }

  @Test("named designs (sweep-update-channel): drawn side by side by label, the phone's cost and server requests")
  func designSweepReport() throws {
    let directory = TestFiles.temporaryDirectory() + "/named"
    let sweep = try Subprocess.run([
      "sweep", Repository.path("Scenarios/sweep-update-channel.yaml"), "--days", "1", "--replications", "2",
      "--out", directory, "--report", "--users", "2000000", "--quiet",
    ])
    #expect(sweep.code == 0, "\(sweep.output)")
    let rendered = try Self.render("\(directory)/report.html", width: 1280)
    let ids = Self.expectDrawn(rendered, "named designs")
    #expect(ids.prefix(3) == ["sweep-phone_mwh_per_day-device", "sweep-pareto", "sweep-server-requests"], "\(ids)")
    #expect(rendered.dom.contains("<dt>designs</dt><dd>widgets[headlines].timeline.after / "))
    for label in ["poll 15m", "silent push", "WidgetKit push"] {
      #expect(rendered.dom.contains(">\(label)</text>"), "\(label) not on the x axis")
    }
    #expect(rendered.dom.contains(">requests a day for 2,000,000 users</text>"), "no axis for the users")
    Self.expectDrawn(try Self.render("\(directory)/report.html", width: 400), "named designs at 400 px")
  }

  @Test(
    "a traced run's device timeline: every row drawn for a phone with pushes on LTE that reaches Low Power Mode, at 1280 px, 400 px and dark"
  )
  func timelineReport() throws {
    let directory = TestFiles.temporaryDirectory() + "/timeline"
    let run = try Subprocess.run(
      ["run"] + TraceCommandTests.scenario + [
        "--days", "2", "--replications", "1", "--trace", "0", "--out", directory, "--report", "--quiet",
      ])
    #expect(run.code == 0, "\(run.output)")
    // Day 1: Low Power Mode from day 0's evening until the charger brings the battery back, and again at night.
    let report = try Subprocess.run(["report", directory, "--day", "1"])
    #expect(report.code == 0, "\(report.output)")
    let page = "\(directory)/report.html"
    let rendered = try Self.render(page, width: 1280)
    let ids = Self.expectDrawn(rendered, "timeline at 1280 px")
    #expect(ids.last == "timeline")
    let timeline = try #require(SVGMarks.figures(rendered.dom).first { $0.id == "timeline" })
    // The rows' names on the axis, and marks in the rows the scenario exercises.
    for row in [
      "views: ticker", "requests: ticker", "reloads: ticker", "views: scores", "data changes", "app", "app wakes",
      "pushes", "radio", "Low Power Mode", "charging", "switched off", "battery (%)",
    ] {
      #expect(timeline.body.contains(">\(row)</text>"), "the timeline has no row \(row)")
    }
    for drawn in [
      "lane: pushes", "lane: radio", "lane: Low Power Mode", "lane: charging", "lane: app wakes", "what: radio tail",
      "what: push delivered", "what: stale view", "what: content age: ticker",
    ] {
      #expect(timeline.body.contains(drawn), "the timeline drew nothing with \(drawn)")
    }
    Self.expectDrawn(try Self.render(page, width: 400), "timeline at 400 px")
    Self.expectDrawn(try Self.render(page, width: 1280, dark: true), "timeline in dark mode")
    try Self.expectScreenshot(page, width: 1280)
  }

  @Test("a calibration's report: a QQ plot and histograms per distribution, delivery by hour, every mark drawn")
  func calibrationReport() throws {
    let directory = TestFiles.temporaryDirectory() + "/field"
    let field = Repository.path("Scenarios/field")
    let run = try Subprocess.run([
      "calibrate", "\(field)/field-log.jsonl", "--server-log", "\(field)/server-log.csv", "--scenario",
      "\(field)/calibrate.yaml", "--out", directory, "--jobs", "2",
    ])
    #expect(run.code == 0, "\(run.output)")
    let ids = Self.expectDrawn(try Self.render("\(directory)/report.html", width: 1280), "calibration at 1280 px")
    #expect(ids.contains("qq-policy-lateness") && ids.contains("histogram-widget-push-delay"), "\(ids)")
    #expect(ids.filter { $0.hasPrefix("qq-") }.count == 11)
    #expect(ids.suffix(2) == ["delivery-silent", "delivery-widget"])
    Self.expectDrawn(try Self.render("\(directory)/report.html", width: 400), "calibration at 400 px")
    let page = try TestFiles.read("\(directory)/report.html")
    // Each panel says its own verdict; clock times read as hours; a long tail gets logarithmic axes.
    let report = try CSVTable(path: "\(directory)/fit_report.csv")
    let row = try #require(report.rows.first { $0[0] == "app_open_time_of_day" })
    let (distance, p) = (row[try report.column("ks_distance")], row[try report.column("ks_p_value")])
    #expect(page.contains("Passes: KS distance \(distance) against its floor 0.100, p \(p)."), "its own verdict")
    #expect(page.contains("logs (hour of the day)"))
    #expect(page.contains("logarithmic axes: the values span decades"))
    // The fit table: the sleep window as clock times, and the hourly profile's method once, then "as above".
    #expect(page.contains(">22:59<") && page.contains("[22:34, 23:24]"))
    #expect(page.ranges(of: ">as above<").count >= 23)
  }

  @Test("a folder without reports is an error naming it, exit 2")
  func noReports() throws {
    let directory = TestFiles.temporaryDirectory()
    let result = try Subprocess.run(["report", directory])
    #expect(result.code == 2)
    #expect(result.output.contains("\(directory): holds neither a run's reports (summary.csv), a sweep's"))
  }
}

/// Finding the charts in a DOM dumped by Chromium and counting the marks Vega drew.
enum SVGMarks {
  /// Each `<figure data-expected-marks="layer:count ...">` with its id and its contents.
  static func figures(_ dom: String) -> [(id: String, expected: [(layer: String, count: Int)], body: Substring)] {
    var result: [(String, [(String, Int)], Substring)] = []
    var rest = dom[...]
    while let start = rest.firstRange(of: "<figure id=\"figure-") {
      let afterId = rest[start.upperBound...]
      guard let idEnd = afterId.firstIndex(of: "\""), let end = afterId.firstRange(of: "</figure>") else { break }
      let id = String(afterId[..<idEnd])
      var expected: [(String, Int)] = []
      if let marks = afterId.firstRange(of: "data-expected-marks=\"") {
        let value = afterId[marks.upperBound...].prefix { $0 != "\"" }
        for pair in value.split(separator: " ") {
          let parts = pair.split(separator: ":")
          if parts.count == 2, let count = Int(parts[1]) { expected.append((String(parts[0]), count)) }
        }
      }
      result.append((id, expected, afterId[..<end.lowerBound]))
      rest = afterId[end.upperBound...]
    }
    return result
  }

  /// The elements directly inside every `<g class="... role-mark LAYER_marks">` of `svg`: one per drawn
  /// item (a bar, a point, a rule), or one per series for lines and areas.
  static func count(in svg: Substring, layer: String) -> Int {
    var count = 0
    var depth = 0
    var markDepths: [Int] = []
    var index = svg.startIndex
    while let open = svg[index...].firstIndex(of: "<") {
      guard let close = svg[open...].firstIndex(of: ">") else { break }
      let tag = svg[svg.index(after: open)..<close]
      index = svg.index(after: close)
      if tag.hasPrefix("/") {
        if markDepths.last == depth { markDepths.removeLast() }
        depth -= 1
        continue
      }
      if tag.hasPrefix("!") { continue }
      if markDepths.last == depth { count += 1 }
      let selfClosing = tag.hasSuffix("/")
      if !selfClosing {
        depth += 1
        if tag.hasPrefix("g "), tag.contains("role-mark \(layer)_marks\"") || tag.contains("role-mark \(layer)_marks ")
        {
          markDepths.append(depth)
        }
      }
    }
    return count
  }
}
