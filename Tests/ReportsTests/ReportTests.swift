import Results
import ScenarioFiles
import SimulationEngine
import Statistics
import TestSupport
import Testing
import WidgetModel

@testable import Reports

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Reports")
struct ReportTests {
  static func read(_ path: String) -> String {
    (try? TestFiles.read(path)) ?? ""
  }

  @Test("the same scenario and seed give byte-identical reports")
  func reproducible() throws {
    let loaded = try ScenarioLoader.loadDefault()
    var outputs: [[String]] = []
    for _ in 0..<2 {
      let directory = TestFiles.temporaryDirectory()
      let results = ScenarioRunner.run(loaded.configuration)
      let metadata = RunMetadata(
        widgetsimVersion: "test", scenarioFile: loaded.file, scenarioText: loaded.text, overrides: [],
        wallTimeSeconds: 0)
      try RunReports.write(configuration: loaded.configuration, results: results, metadata: metadata, to: directory)
      outputs.append(RunReports.files.map { ReportTests.read("\(directory)/\($0)") })
      #expect(try TestFiles.list(directory) == RunReports.files.sorted(), "no temporary files left")
    }
    #expect(outputs[0] == outputs[1])
    #expect(outputs[0].allSatisfy { !$0.isEmpty })
  }

  @Test(
    "a result reused for another replication gives the same reports as a fresh one",
    arguments: ["quickstart", "delivery-live-activity", "weather-push", "sports-broadcast"])
  func reusedResultMatchesFresh(_ name: String) throws {
    let loaded = try ScenarioLoader.load(path: Repository.path("Scenarios/\(name).yaml"))
    // One phone of a fleet (sports-broadcast: its channels' updates are booked over the whole run when the
    // device starts, into minutes a reused result has not emptied yet).
    var configuration = loaded.configuration
    configuration.fleet.devices = 1
    let pool = ResultPool()
    pool.give(ScenarioRunner.runReplication(configuration, replication: 1))
    let reused = ScenarioRunner.runReplication(configuration, replication: 0, pool: pool)
    #expect(pool.spareCount == 0, "the spare was taken")
    // A result of another shape (here, shortened by a warm-up) is dropped, not kept or reused.
    var warm = configuration
    warm.warmupDays = 1
    pool.give(ScenarioRunner.runReplication(warm, replication: 0))
    pool.give(ScenarioRunner.runReplication(warm, replication: 1))
    let fresh2 = ScenarioRunner.runReplication(warm, replication: 2, pool: pool)
    #expect(pool.spareCount == 0 && fresh2.days == configuration.days)
    let fresh = ScenarioRunner.runReplication(configuration, replication: 0)
    var outputs: [[String]] = []
    for result in [reused, fresh] {
      let directory = TestFiles.temporaryDirectory()
      let metadata = RunMetadata(
        widgetsimVersion: "test", scenarioFile: loaded.file, scenarioText: loaded.text, overrides: [],
        wallTimeSeconds: 0)
      try RunReports.write(configuration: configuration, results: [result], metadata: metadata, to: directory)
      outputs.append(RunReports.files.map { ReportTests.read("\(directory)/\($0)") })
    }
    #expect(outputs[0] == outputs[1])
    #expect(outputs[0].allSatisfy { !$0.isEmpty })
  }

  @Test("a different seed changes the reports; another widget's policy does not change what the user did")
  func commonRandomNumbers() throws {
    let base = try ScenarioLoader.loadDefault().configuration
    var other = base
    other.seed += 1
    let first = ScenarioRunner.runReplication(base, replication: 0)
    let second = ScenarioRunner.runReplication(other, replication: 0)
    #expect(first.staleness[0].views != second.staleness[0].views)

    // Change the headlines widget's policy: the user's views of the score widget stay exactly the same.
    var changed = base
    changed.widgets[0].timeline.policy = .after(.minutes(10))
    let third = ScenarioRunner.runReplication(changed, replication: 0)
    #expect(third.staleness[1].views == first.staleness[1].views)
    #expect(third.staleness[0].views == first.staleness[0].views)
    #expect(third.total(instance: 0, cause: .policy) != first.total(instance: 0, cause: .policy))
  }

  @Test("reloads.csv counts every request exactly once, and the reloads that ran match the trace")
  func everyRequestCountedOnce() throws {
    let configuration = try ScenarioLoader.loadDefault(overrides: [try ScenarioOverride("replications=1")])
      .configuration
    let result = ScenarioRunner.runReplication(configuration, replication: 0, trace: true)
    let csv =
      ReloadsReport.header(detail: true)
      + ReloadsReport.rows(result, .replication(result.replication, subjects: RunSummary.Subjects(configuration)))
    let lines = csv.split(separator: "\n")
    #expect(lines.first == "replication,day,hour,widget,subject_kind,cause,outcome,count")
    var ran = 0
    var total = 0
    for line in lines.dropFirst() {
      let cells = line.split(separator: ",")
      #expect(cells.count == 8)
      #expect(cells[4] == "widget")
      let count = Int(cells[7]) ?? -1
      #expect(count > 0)
      total += count
      if let outcome = ReloadOutcome.allCases.first(where: { $0.name == cells[6] }), outcome.didBuild { ran += count }
    }
    #expect(ran == result.trace?.count)
    #expect(total == (0..<result.instanceCount).map { result.total(instance: $0) }.reduce(0, +))
  }

  @Test("summary.csv: mean and 95% CI over replications, empty CI cells with one replication")
  func summary() throws {
    let configuration = try ScenarioLoader.loadDefault().configuration
    let results = ScenarioRunner.run(configuration)
    let summary = RunSummary(results: results, subjects: RunSummary.Subjects(configuration))
    let row = try #require(summary.row("reloads_per_day", widget: "headlines"))
    let perReplication = results.map { result in
      Double(ReloadOutcome.allCases.filter(\.isReload).map { result.total(instance: 0, outcome: $0) }.reduce(0, +))
        / Double(result.days)
    }
    let expected = RunningStatistics(perReplication)
    #expect(abs(row.values.mean - expected.mean) < 1e-12)
    let interval = try #require(row.interval)
    let t = ConfidenceInterval.studentQuantile(probability: 0.975, degreesOfFreedom: Double(results.count - 1))
    #expect(abs(interval.high - (expected.mean + t * expected.standardError)) < 1e-9)
    #expect(abs(interval.low - Swift.max(0, expected.mean - t * expected.standardError)) < 1e-9)
    #expect(interval.method == .t)
    #expect(
      summary.csv().hasPrefix(
        "metric,widget,mean,ci95_low,ci95_high,replications,unit,per,subject_kind,statistic,ci_method\n"))
    // The denominators: a widget's daily figures per phone that has it, staleness per view, server per fleet.
    #expect(summary.csv().contains("\nreloads_per_day,headlines,") && row.per == "phone_with_widget")
    #expect(summary.row("staleness_p95", widget: "headlines")?.per == "view")
    #expect(summary.row("fetch_qps_busiest_minute", widget: "server")?.per == "fleet")
    #expect(summary.row("installed_devices", widget: "headlines")?.values.mean == 1)
    // Staleness during bursts is per view in a burst.
    #expect(RunSummary.burstMetrics.allSatisfy { $0.name.hasPrefix("views_") || $0.per == "view_in_burst" })

    let single = RunSummary(results: [results[0]], subjects: RunSummary.Subjects(configuration))
    let line = try #require(single.csv().split(separator: "\n").first { $0.hasPrefix("reloads_per_day,headlines,") })
    #expect(line.split(separator: ",", omittingEmptySubsequences: false)[3] == "")
  }

  @Test("the quantile of mostly-zero counts equals the exact sample quantile")
  func quantileOfCounts() {
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: 8))
    // Small counts (read through a histogram) and large ones (sorted).
    for largest in [50, 1_000_000] {
      let counts = (0..<5_000).map { _ in
        stream.uniform() < 0.9 ? Int64(0) : Int64(stream.integer(below: largest))
      }
      for p in [0, 0.5, 0.9, 0.95, 0.99, 1] {
        // Exact for small counts; for large ones within the rounding of the two interpolations' arithmetic.
        let exact = SampleQuantiles(counts.map(Double.init)).quantile(p)
        let found = RunSummary.quantileOfCounts(counts, p)
        #expect(largest == 50 ? found == exact : abs(found - exact) <= 1e-12 * abs(exact), "p = \(p)")
        // Listed in part (the busy minutes, some of them zero), the rest zero: the same quantile.
        let listed = counts.enumerated().filter { $0.offset % 3 == 0 || $0.element != 0 }.map(\.element)
        let partly = RunSummary.quantileOfCounts(listed.reversed(), of: counts.count, p)
        #expect(partly == RunSummary.quantileOfCounts(counts, p), "p = \(p), counts below \(largest)")
      }
    }
    #expect(RunSummary.quantileOfCounts([], of: 0, 0.5).isNaN)
    #expect(RunSummary.quantileOfCounts([3], of: 1, 0.5) == 3)
  }

  @Test("numbers are written with fixed decimals; names are folder-safe")
  func formatting() {
    #expect(CSVFormat.number(1.23456) == "1.2346")
    #expect(CSVFormat.number(-0.5, decimals: 1) == "-0.5")
    #expect(CSVFormat.number(2, decimals: 0) == "2")
    #expect(CSVFormat.number(.nan) == "")
    #expect(CSVFormat.text("a,b") == "\"a,b\"")
    // Cells a spreadsheet would run as formulas are neutralised (OWASP); plain numbers are left alone.
    #expect(CSVFormat.text("=HYPERLINK(\"x\")") == "\"'=HYPERLINK(\"\"x\"\")\"")
    for formula in ["+1+1", "-8h", "@SUM(A1)", "\tx", "\rx"] {
      #expect(CSVFormat.text(formula) == "\"'\(formula)\"", "\(formula)")
    }
    #expect(CSVFormat.text("-0.5") == "-0.5" && CSVFormat.text("+2") == "+2" && CSVFormat.text("a-b") == "a-b")
    #expect(CSVLines.parse(CSVFormat.text("=1,2") + ",x\n") == [["'=1,2", "x"]], "still one cell, read back")
    #expect(RunReports.folderName(for: "../../etc") == "_._.._etc")
    #expect(RunReports.folderName(for: "news-15min") == "news-15min")
    #expect(RunReports.folderName(for: String(repeating: "x", count: 300)) == String(repeating: "x", count: 100))
    #expect(RunReports.folderName(for: "..") == "_.")
  }

  @Test("text cells: every short string reads back as itself, quoted by the bytes a CSV reader splits on")
  func textCellsByBytes() {
    // Every string of up to three pieces: the bytes looked for, look-alikes inside clusters (a comma or quote
    // with a combining accent is one character to Swift, and so is CR LF, and a prepended mark such as U+0D4E
    // with what follows it), formula starts that make a number, other scalars of one to four bytes.
    let pieces = [
      ",", "\"", "\n", "\r", "\r\n", "=", "+", "-", "@", "\t", "a", "é", "\u{301}", "🙂", "1", ".", " ", ",\u{301}",
      "\"\u{301}", "\u{D4E}",
    ]
    var strings = [""]
    var last = [""]
    for _ in 0..<3 {
      last = last.flatMap { prefix in pieces.map { prefix + $0 } }
      strings += last
    }
    let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]
    let splitting: Set<Unicode.Scalar> = [",", "\"", "\n", "\r"]
    var (quoted, plain) = (0, 0)
    for value in strings {
      let cell = CSVFormat.text(value)
      let formula = (value.unicodeScalars.first.map(formulaStarts.contains) ?? false) && Double(value) == nil
      let expected = formula ? "'" + value : value
      // Read back (scalar by scalar, as a CSV reader does), the cell is the value, behind a `'` for a formula.
      // Compared as bytes: `==` on strings is canonical equivalence, which a normalising writer would pass.
      let read = CSVLines.parse(cell + ",x\n")
      #expect(
        read.count == 1 && read[0].count == 2 && Array(read[0][0].utf8) == Array(expected.utf8) && read[0][1] == "x",
        "\(value.debugDescription) -> \(cell.debugDescription)")
      // Quoted exactly when a reader would split or misread it; otherwise written as it is.
      if formula || value.unicodeScalars.contains(where: splitting.contains) {
        // By bytes: a combining accent right after the opening quote joins it in one character.
        #expect(
          cell.utf8.first == UInt8(ascii: "\"") && cell.utf8.last == UInt8(ascii: "\""), "\(value.debugDescription)")
        quoted += 1
      } else {
        #expect(Array(cell.utf8) == Array(value.utf8), "\(value.debugDescription)")
        plain += 1
      }
    }
    #expect(strings.count == 1 + 20 + 20 * 20 + 20 * 20 * 20, "every string of up to three of the 20 pieces")
    #expect(quoted > 1_000 && plain > 1_000, "both kinds, many times: \(quoted) quoted, \(plain) plain")
    // Characters that hide a comma, quote or line break from a comparison of characters are still quoted.
    #expect(CSVFormat.text(",\u{301}") == "\",\u{301}\"" && CSVFormat.text("a\r\nb") == "\"a\r\nb\"")
    #expect(CSVFormat.text("\"\u{301}") == "\"\"\"\u{301}\"" && CSVFormat.text("-1") == "-1")
    #expect(CSVFormat.text("\u{D4E},") == "\"\u{D4E},\"", "a comma after a prepended mark is one character with it")
  }

  @Test("numbers written digit by digit read as the interpolated text did, for every decimals used and edge")
  func numberDigits() {
    // The formatter as it was (interpolated and padded strings): the text every report was checked against.
    func interpolated(_ value: Double, decimals: Int) -> String {
      guard value.isFinite else { return "" }
      var scale = 1.0
      for _ in 0..<decimals { scale *= 10 }
      let scaled = (value * scale).rounded()
      guard abs(scaled) < 9e15 else { return "\(value)" }
      let whole = Int64(scaled)
      let sign = whole < 0 ? "-" : ""
      let magnitude = whole.magnitude
      let integer = magnitude / UInt64(scale)
      guard decimals > 0 else { return "\(sign)\(integer)" }
      var fraction = String(magnitude % UInt64(scale))
      while fraction.count < decimals { fraction = "0" + fraction }
      return "\(sign)\(integer).\(fraction)"
    }
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: 21))
    var values: [Double] = [
      0, -0.0, 0.5, -0.5, 0.005, -0.005, 0.0049999, 1e-300, -1e-300, 9e15, 8.999999999999999e15, -9e15, 1e300,
      -1e300, .greatestFiniteMagnitude, .leastNonzeroMagnitude, .infinity, -.infinity, .nan, 123_456.789,
      99.995, 2.675, 1.005,
    ]
    for _ in 0..<20_000 {
      let magnitude = exp((stream.uniform() - 0.3) * 45)  // about 1e-6 to 1e14
      values.append(stream.bernoulli(0.2) ? -magnitude : magnitude)
      values.append((stream.uniform() * 1e6).rounded() / 100)  // cents, as counts and means are written
    }
    var mismatches: [String] = []
    for value in values {
      for decimals in 0...12
      where CSVFormat.number(value, decimals: decimals) != interpolated(value, decimals: decimals) {
        mismatches.append("\(value) with \(decimals): \(CSVFormat.number(value, decimals: decimals))")
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    #expect(CSVFormat.number(-0.001, decimals: 2) == "0.00" && CSVFormat.number(-0.006, decimals: 2) == "-0.01")
    #expect(CSVFormat.number(1e-7, decimals: 18) == "0.000000100000000000")
  }

  @Test("a value's shortest text is Swift's description, whole values written digit by digit included")
  func shortestText() {
    var values: [Double] = [
      0, -0.0, 1, -1, 0.5, 12, 12.5, 1e15 - 1, 1e15, -1e15 + 1, 9_007_199_254_740_992, 1e16, 1e300,
      .leastNonzeroMagnitude,
      .leastNormalMagnitude, -123_456_789, 0.1 + 0.2, 1.0.nextUp, 1.0.nextDown, 999_999_999_999_999.5,
    ]
    // Whole values of every size up to past the fast path's bound, and fractions (fixed seed).
    var generator = SplitMix64(state: 20)
    var bound: UInt64 = 1
    for _ in 0...17 {
      bound *= 10
      for _ in 0..<50 {
        let whole = Double(generator.next() % bound) * (generator.next() % 2 == 0 ? 1 : -1)
        values.append(whole)
        values.append(whole / 1_024 + 1.0 / 3)
      }
    }
    // Any finite value: random bit patterns, every exponent (the standard library writes these).
    while values.count < 5_000 {
      let value = Double(bitPattern: generator.next())
      if value.isFinite { values.append(value) }
    }
    var bytes = CSVBytes()
    var expected = ""
    for value in values {
      bytes.shortest(value)
      bytes.comma()
      expected += value.description + ","
    }
    #expect(bytes.text == expected)
  }

  @Test("cells written as bytes read as the strings they replace: numbers, whole numbers, clock times, UTC stamps")
  func csvBytes() {
    var bytes = CSVBytes()
    var expected = ""
    let start = CalendarDate(year: 2026, month: 1, day: 5)!
    for value in [0.0, -0.0, 0.004, -0.004, -0.006, 12.5, 1e20, .nan, -.infinity, 3] {
      for decimals in [0, 2, 6] {
        bytes.number(value, decimals: decimals)
        bytes.comma()
        expected += CSVFormat.number(value, decimals: decimals) + ","
      }
    }
    for value in [0, 7, 10, 99, 12_345, -5, -1_440, Int.max, Int.min] {
      for width in [1, 2, 4, 25] {
        bytes.padded(value, width: width)
        bytes.comma()
        expected += CalendarDate.padded(value, width) + ","
      }
      bytes.integer(value)
      expected += "\(value)"
      bytes.newline()
      expected += "\n"
    }
    // Clock times and stamps as ClockText built them from strings before it handed out CSVBytes' text.
    func clock(_ minute: Int) -> String {
      "\(CalendarDate.padded(minute / 60, 2)):\(CalendarDate.padded(minute % 60, 2))"
    }
    func clockSeconds(_ second: Int) -> String { "\(clock(second / 60)):\(CalendarDate.padded(second % 60, 2))" }
    for minute in stride(from: 0, to: 1_440, by: 7) {
      bytes.minutes(minute)
      bytes.seconds(minute * 60 + minute % 60)
      expected += clock(minute) + clockSeconds(minute * 60 + minute % 60)
      #expect(ClockText.minutes(minute) == clock(minute))
      #expect(ClockText.seconds(minute * 60 + minute % 60) == clockSeconds(minute * 60 + minute % 60))
    }
    for day in [-400, -1, 0, 1, 30, 365, 800, 40_000] {
      let stamp = "\(start.adding(days: day).iso)T\(clockSeconds(3_723))Z"
      bytes.utc(start, day: day, secondOfDay: 3_723)
      bytes.append("x")
      expected += stamp + "x"
      #expect(ClockText.utc(start, day: day, secondOfDay: 3_723) == stamp)
    }
    #expect(bytes.text == expected)
  }

  @Test("a CSV file streamed row by row reads as the whole text does (quotes, CRLF, a BOM, line breaks in cells)")
  func streamedRows() throws {
    let texts = [
      "a,b\n1,2\n", "a,\"b,c\"\n\"x\"\"y\",2\r\n", "\u{FEFF}h\n\"two\nlines\",x\n", "no,final,newline",
      "\"'=1,2\",é\n,,\n", String(repeating: "m,w,1.5\n", count: 20_000),
    ]
    for text in texts {
      let path = TestFiles.temporaryDirectory() + "/t.csv"
      try TestFiles.write(text, to: path)
      var rows: [[String]] = []
      var lines: [Int] = []
      try CSVStream.forEachRow(path: path, limit: 1 << 30) { row, line in
        rows.append(row)
        lines.append(line)
      }
      let expected = CSVLines.parse(text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text)
      #expect(rows == expected, "\(text.prefix(40))")
      #expect(lines.first == 1 && lines == lines.sorted())
    }
    let path = TestFiles.temporaryDirectory() + "/big.csv"
    try TestFiles.write("a\n", to: path)
    #expect(truncate(path, 2 << 20) == 0)
    #expect(throws: TextFile.ReadError.self) { try CSVStream.forEachRow(path: path, limit: 1 << 20) { _, _ in } }
  }

  @Test("an atomic write replaces the file whole and leaves no temporary file")
  func atomicWrite() throws {
    let directory = TestFiles.temporaryDirectory()
    let path = "\(directory)/out.csv"
    try AtomicFile.write("first\n", to: path)
    try AtomicFile.write("second\n", to: path)
    #expect(ReportTests.read(path) == "second\n")
    #expect(try TestFiles.list(directory) == ["out.csv"])
    #expect(throws: AtomicFile.WriteError.self) { try AtomicFile.write("x", to: "/nonexistent/dir/out.csv") }
  }
}
