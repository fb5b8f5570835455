import Reports

/// The page of a calibration or an observed check (`calibrate`, `check --observed`), from fit_curves.csv
/// and fit_report.csv (and delivery.csv and fit.csv when there): per distribution a QQ plot (the logs'
/// quantiles against the simulation's, every percent) and the two histograms side by side; the delivered
/// share of pushes by hour; tables of the verdicts and the fits.
enum FitCharts {
  static func page(directory: String) throws -> String {
    let curves = try CSVTable(path: "\(directory)/fit_curves.csv")
    let report = try CSVTable(path: "\(directory)/fit_report.csv")
    let (name, unit, curve) = (try curves.column("distribution"), try curves.column("unit"), try curves.column("curve"))
    let (x, xHigh) = (try curves.column("x"), try curves.column("x_high"))
    let (observed, simulated) = (try curves.column("observed"), try curves.column("simulated"))
    var distributions: [String] = []
    for row in curves.rows where !distributions.contains(row[name]) { distributions.append(row[name]) }
    var charts: [Chart] = []
    let verdicts = try verdicts(report)
    for distribution in distributions {
      let rows = curves.rows.filter { $0[name] == distribution }
      let columns = Columns(unit: unit, curve: curve, x: x, xHigh: xHigh, observed: observed, simulated: simulated)
      let verdict = verdicts[distribution] ?? (false, "")
      charts += [qqChart(distribution, rows, columns, verdict: verdict), histogramChart(distribution, rows, columns)]
    }
    if ExistingReports.find(["delivery.csv"], in: directory).contains("delivery.csv") {
      charts += try deliveryCharts(directory: directory)
    }
    let verdict = try report.column("verdict")
    let distribution = try report.column("distribution")
    let failed = Set(report.rows.filter { $0[verdict] == "fail" }.map { $0[distribution] }).count
    // Every distribution the check compared; those with values on one side only have no chart.
    let compared = Set(report.rows.map { $0[distribution] }).count
    let drawn = compared == distributions.count ? "" : " (\(distributions.count) with values on both sides, charted)"
    let facts: [(String, String)] = [
      ("folder", directory), ("distributions", "\(compared)\(drawn)"),
      (
        "verdict",
        failed == 0
          ? "the scenario explains the logs" : failed == 1 ? "1 distribution differs" : "\(failed) distributions differ"
      ),
    ]
    return HTMLPage.html(
      title: "widgetsim calibration: \(directory)", facts: facts, charts: charts,
      tables: try tables(directory: directory, report: report), notes: [])
  }

  /// The columns of fit_curves.csv.
  struct Columns {
    let unit: Int
    let curve: Int
    let x: Int
    let xHigh: Int
    let observed: Int
    let simulated: Int
  }

  /// The logs' quantiles against the simulation's, with the diagonal.
  static func qqChart(
    _ distribution: String, _ rows: [[String]], _ c: Columns, verdict: (failed: Bool, text: String)
  ) -> Chart {
    let display = Display(distribution: distribution, unit: rows.first?[c.unit] ?? "")
    let unitText = display.unit
    let qq = rows.filter { $0[c.curve] == "qq" }
    let points = qq.map { row in
      VegaLite.row([
        ("quantile", .number(Double(row[c.x]) ?? 0)), ("logs", .number(display.value(row[c.observed]))),
        ("simulated", .number(display.value(row[c.simulated]))),
      ])
    }
    let values: [Double] = qq.flatMap { row -> [Double] in
      [display.value(row[c.observed]), display.value(row[c.simulated])]
    }
    let diagonal = [values.min() ?? 0, values.max() ?? 0].map {
      VegaLite.row([("logs", .number($0)), ("simulated", .number($0))])
    }
    let scale = scale(for: values)
    let axes: [(String, JSONValue)] = [
      ("x", VegaLite.field("logs", "quantitative", title: "logs (\(unitText))", extra: scale)),
      ("y", VegaLite.field("simulated", "quantitative", title: "simulated (\(unitText))", extra: scale)),
    ]
    return Chart(
      id: "qq-\(HTMLText.slug(distribution))",
      title: "\(distribution): QQ plot\(verdict.failed ? " (fails)" : "")",
      caption: "The logs' quantile against the simulation's at every percent (\(unitText)"
        + "\(scale.isEmpty ? "" : ", logarithmic axes: the values span decades")); on the diagonal the fitted "
        + "scenario explains the logs. \(verdict.text)",
      spec: VegaLite.unit(
        values: points,
        layers: [
          VegaLite.layer(
            "diagonal", mark: VegaLite.mark("line", [("color", .string("#9aa0a6"))]), encoding: axes,
            values: diagonal),
          VegaLite.layer(
            "points", mark: VegaLite.mark("point"),
            encoding: axes + [
              (
                "tooltip",
                .array([
                  VegaLite.field("quantile", "quantitative", title: "quantile"),
                  VegaLite.field("logs", "quantitative", title: "logs"),
                  VegaLite.field("simulated", "quantitative", title: "simulated"),
                ])
              )
            ]),
        ]),
      marks: [("diagonal", 1), ("points", points.count)])
  }

  /// The two sides' shares in the histogram's bins, side by side.
  static func histogramChart(_ distribution: String, _ rows: [[String]], _ c: Columns) -> Chart {
    let display = Display(distribution: distribution, unit: rows.first?[c.unit] ?? "")
    let unitText = display.unit
    let bins = rows.filter { $0[c.curve] == "histogram" }
    let bars = bins.flatMap { row in
      [("logs", row[c.observed]), ("simulated", row[c.simulated])].map { side, share in
        VegaLite.row([
          (
            "bin",
            .string(
              row[c.x] == row[c.xHigh]
                ? display.label(row[c.x]) : "\(display.label(row[c.x]))-\(display.label(row[c.xHigh]))")
          ),
          ("low", .number(Double(row[c.x]) ?? 0)), ("side", .string(side)), ("share", .number(Double(share) ?? 0)),
        ])
      }
    }
    return Chart(
      id: "histogram-\(HTMLText.slug(distribution))", title: "\(distribution): logs and simulation",
      caption: "Share of each side's values in 20 equal bins over the pooled 1st to 99th percentiles "
        + "(\(unitText)).",
      spec: VegaLite.unit(
        values: bars,
        layers: [
          VegaLite.layer(
            "bars", mark: VegaLite.mark("bar"),
            encoding: [
              ("x", VegaLite.field("bin", "ordinal", title: unitText, extra: [("sort", .null)])),
              ("xOffset", VegaLite.field("side", "nominal", title: "side")),
              ("y", VegaLite.field("share", "quantitative", title: "share of values")),
              ("color", VegaLite.field("side", "nominal", title: "side")),
            ])
        ]),
      marks: [("bars", bars.count)])
  }

  /// The share of sends delivered by local hour, logs and simulation, per push type.
  static func deliveryCharts(directory: String) throws -> [Chart] {
    let table = try CSVTable(path: "\(directory)/delivery.csv")
    let (push, hour) = (try table.column("push"), try table.column("hour"))
    let (logs, model) = (try table.column("delivered_share"), try table.column("simulated_share"))
    var types: [String] = []
    for row in table.rows where !types.contains(row[push]) { types.append(row[push]) }
    return types.map { type in
      var sides: Set<String> = []
      let values = table.rows.filter { $0[push] == type }.flatMap { row in
        [("logs", row[logs]), ("simulated", row[model])].compactMap { side, share in
          Double(share).map {
            sides.insert(side)
            return VegaLite.row([
              ("hour", .integer(Int(row[hour]) ?? 0)), ("side", .string(side)), ("share", .number($0)),
            ])
          }
        }
      }
      return Chart(
        id: "delivery-\(HTMLText.slug(type))", title: "\(type) pushes delivered, by hour sent",
        caption: "Share of the server's sends the app saw arrive, by local hour of the send (delivery.csv).",
        spec: VegaLite.unit(
          values: values,
          layers: [
            VegaLite.layer(
              "shares", mark: VegaLite.mark("line", [("point", .bool(true))]),
              encoding: [
                ("x", VegaLite.hourOfDay), ("y", VegaLite.field("share", "quantitative", title: "delivered share")),
                ("color", VegaLite.field("side", "nominal", title: "side")),
              ])
          ]),
        marks: [("shares", sides.count)])
    }
  }

  /// The verdict per distribution, and the fits when fit.csv is there.
  static func tables(directory: String, report: CSVTable) throws -> String {
    let columns = ["distribution", "n_observed", "n_simulated", "ks_distance", "ks_p_value", "floor", "verdict"]
    let indices = try columns.map { try report.column($0) }
    var seen: Set<String> = []
    var html = "<div class=\"table-wrap\"><table><thead><tr>"
    html += columns.map { "<th>\($0)</th>" }.joined() + "</tr></thead><tbody>\n"
    for row in report.rows where seen.insert(row[indices[0]]).inserted {
      html += "<tr>" + indices.map { "<td>\(HTMLText.escape(row[$0]))</td>" }.joined() + "</tr>\n"
    }
    html += "</tbody></table></div>\n"
    guard ExistingReports.find(["fit.csv"], in: directory).contains("fit.csv") else { return html }
    let fits = try CSVTable(path: "\(directory)/fit.csv")
    let (key, estimate, low, high) = (
      try fits.column("key"), try fits.column("estimate"), try fits.column("ci95_low"), try fits.column("ci95_high")
    )
    let (count, method) = (try fits.column("n"), try fits.column("method"))
    html += "<details open><summary>fit.csv</summary><div class=\"table-wrap\"><table><thead><tr><th>key</th>"
    html += "<th>estimate</th><th>95% CI</th><th>n</th><th>method</th></tr></thead><tbody>\n"
    var previousMethod = ""
    for row in fits.rows {
      // Times of day (the sleep window) as clock times; a method the row above gave already, not again.
      let clock = row[key].hasPrefix("user.sleep.")
      let figure = { (text: String) in clock ? Display.clock(text) : HTMLText.figure(text) }
      let interval = row[low].isEmpty ? "–" : "[\(figure(row[low])), \(figure(row[high]))]"
      let said = row[method] == previousMethod ? "as above" : HTMLText.escape(row[method])
      previousMethod = row[method]
      html += "<tr><td>\(HTMLText.escape(row[key]))</td><td class=\"number\">\(figure(row[estimate]))</td>"
      html += "<td class=\"number\">\(interval)</td><td class=\"number\">\(HTMLText.escape(row[count]))</td>"
      html += "<td>\(said)</td></tr>\n"
    }
    return html + "</tbody></table></div></details>\n"
  }
}
