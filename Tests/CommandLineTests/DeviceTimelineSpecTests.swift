import Reports
import TestSupport
import Testing

/// The device timeline's chart specification in report.html: each widget's content-age line, and one colour
/// per meaning.
@Suite("Device timeline specification", .serialized)
struct DeviceTimelineSpecTests {
  /// The timeline's Vega-Lite specification in `page` (report.html's `chart-specs` script).
  static func timelineSpec(_ page: String) throws -> JSONValue {
    let open = "<script type=\"application/json\" id=\"chart-specs\">"
    let start = try #require(page.firstRange(of: open))
    let end = try #require(page[start.upperBound...].firstRange(of: "</script>"))
    let charts = try JSONValue.parse(String(page[start.upperBound..<end.lowerBound]))
    let chart = try #require(charts.elements.first { $0["id"]?.scalarText == "timeline" })
    return try #require(chart["spec"])
  }

  /// Every (domain, range) pair of the colour and stroke scales anywhere in `value`.
  static func colorScales(_ value: JSONValue) -> [([String], [String])] {
    var found: [([String], [String])] = []
    if case .object(let members) = value {
      for (key, member) in members {
        if key == "color" || key == "stroke", let scale = member["scale"] {
          found.append(
            (
              scale["domain"]?.elements.compactMap(\.scalarText) ?? [],
              scale["range"]?.elements.compactMap(\.scalarText) ?? []
            ))
        }
        found += colorScales(member)
      }
    }
    for element in value.elements { found += colorScales(element) }
    return found
  }

  @Test(
    "one content-age line per widget, dropping exactly at reloads that show newer data; no two legend entries share a colour"
  )
  func contentAgeAndColours() throws {
    let directory = TestFiles.temporaryDirectory() + "/timeline"
    let run = try Subprocess.run(
      ["run"] + TraceCommandTests.scenario + [
        "--days", "2", "--replications", "1", "--trace", "0", "--out", directory, "--quiet",
      ])
    #expect(run.code == 0, "\(run.output)")
    let report = try Subprocess.run(["report", directory, "--day", "1"])
    #expect(report.code == 0, "\(report.output)")
    let spec = try Self.timelineSpec(try TestFiles.read("\(directory)/report.html"))

    // Colours: every scale maps each meaning to its own colour, and the layers agree on them.
    var meaningOf: [String: String] = [:]
    var colorOf: [String: String] = [:]
    let scales = Self.colorScales(spec)
    #expect(scales.count >= 5)
    for (domain, range) in scales {
      #expect(domain.count == range.count && !domain.isEmpty)
      for (meaning, color) in zip(domain, range) {
        #expect(
          meaningOf[color, default: meaning] == meaning, "\(color) means both \(meaning) and \(meaningOf[color]!)")
        #expect(colorOf[meaning, default: color] == color, "\(meaning) is drawn in two colours")
        meaningOf[color] = meaning
        colorOf[meaning] = color
      }
    }

    // The trace: per widget, the reloads and content changes of day 1.
    let trace = try CSVTable(path: "\(directory)/trace.csv")
    let (kind, subject, seconds, outcome, value) = (
      try trace.column("kind"), try trace.column("subject"), try trace.column("seconds"), try trace.column("outcome"),
      try trace.column("value")
    )
    let dayStart = 86_400.0
    let widgets = Set(trace.rows.filter { $0[kind] == "content" }.map { $0[subject] })
    #expect(widgets == ["ticker", "scores"])

    let layer = try #require(spec["layer"]?.elements.first { $0["name"]?.scalarText == "timeline_content_age" })
    let points = layer["data"]?["values"]?.elements ?? []
    #expect(Set(points.compactMap { $0["what"]?.scalarText }) == Set(widgets.map { "content age: \($0)" }))
    for widget in widgets {
      let line = points.filter { $0["what"]?.scalarText == "content age: \(widget)" }.map { point in
        (
          hour: Double(point["start"]?.scalarText ?? "") ?? .nan, age: Double(point["age"]?.scalarText ?? "") ?? .nan,
          segment: point["segment"]?.scalarText ?? ""
        )
      }
      #expect(line.first?.hour == 0 && line.last?.hour == 24, "\(widget): the line does not span the day")
      // Drops: two points at one time, the second younger. Between times the age grows with the clock (or
      // stays 0 while current).
      var drops: [Double] = []
      for (a, b) in zip(line, line.dropFirst()) where a.segment == b.segment {
        if a.hour == b.hour {
          if b.age < a.age - 1e-9 { drops.append(a.hour) }
        } else {
          let grows = abs((b.age - a.age) - (b.hour - a.hour)) < 1e-6
          let stays = a.age == 0 && b.age == 0
          #expect(grows || stays, "\(widget): from \(a) to \(b) the age neither grows with the clock nor stays 0")
        }
      }
      // Reloads that showed newer data: the content rows of day 1 whose age is below what the widget showed.
      var shownSince: Double?? = .none
      var expected: [Double] = []
      var reloadTimes: [Double] = []
      for row in trace.rows where row[subject] == widget {
        guard let time = Double(row[seconds]) else { continue }
        if row[kind] == "reload" && time >= dayStart && time < dayStart + 86_400 { reloadTimes.append(time) }
        guard row[kind] == "content" else { continue }
        let next: Double?? =
          switch row[outcome] {
          case "current": .some(nil)
          case "behind": .some(time - (Double(row[value]) ?? 0))
          default: .none
          }
        if time >= dayStart && time < dayStart + 86_400, case .some(let old) = shownSince, case .some(let new) = next {
          let oldAge = old.map { time - $0 } ?? 0
          let newAge = new.map { time - $0 } ?? 0
          if newAge < oldAge - 1e-3 { expected.append((time - dayStart) / 3_600) }
        }
        shownSince = next
      }
      #expect(
        drops.count == expected.count, "\(widget): \(drops.count) drops, \(expected.count) reloads showed newer data")
      for (drop, want) in zip(drops, expected) { #expect(abs(drop - want) < 1e-6) }
      // Each drop is at one of the widget's reloads.
      for drop in drops {
        #expect(
          reloadTimes.contains { abs(($0 - dayStart) / 3_600 - drop) < 1e-6 },
          "\(widget): a drop at \(drop) h without a reload")
      }
      if widget == "ticker" { #expect(drops.count > 10, "ticker: \(drops.count) drops") }
    }
  }
}
