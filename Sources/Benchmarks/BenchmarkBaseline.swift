import Reports

/// One stored benchmark figure: a row of a bench CSV (`benchmark,parameter,value,unit`).
public struct BenchmarkBaselineRow: Sendable, Equatable {
  public let benchmark: String
  public let parameter: String
  /// The stored median.
  public let value: Double
  public let unit: String
  /// The 1-based line of the file it came from, for messages.
  public let line: Int

  public init(benchmark: String, parameter: String, value: Double, unit: String, line: Int) {
    self.benchmark = benchmark
    self.parameter = parameter
    self.value = value
    self.unit = unit
    self.line = line
  }
}

/// A baseline file that cannot be read or is malformed, naming the file and (when known) the line.
public struct BenchmarkBaselineError: Error, CustomStringConvertible, Sendable, Equatable {
  public let file: String
  public let line: Int?
  public let message: String
  public var description: String { line.map { "\(file):\($0): \(message)" } ?? "\(file): \(message)" }
}

/// Stored bench figures: the CSV `widgetsim bench --format csv` writes, read back for `--baseline`.
public enum BenchmarkBaseline {
  static let header = "benchmark,parameter,value,unit"

  /// Reads and parses the baseline at `path`.
  public static func load(path: String) throws(BenchmarkBaselineError) -> [BenchmarkBaselineRow] {
    try parse(text: try readFile(path), file: path)
  }

  /// Parses a bench CSV: the header, then one row per (benchmark, parameter) with a positive, finite value.
  /// Blank lines are ignored; anything else malformed is an error naming its line.
  public static func parse(text: String, file: String) throws(BenchmarkBaselineError) -> [BenchmarkBaselineRow] {
    var rows: [BenchmarkBaselineRow] = []
    var seen: [String: Int] = [:]
    var sawHeader = false
    // "\r\n" is one Character in Swift, so a CRLF file has no "\n" Character: split on both.
    for (index, rawLine) in text.split(
      omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }
    ).enumerated() {
      let line = index + 1
      let content = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
      if content.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
      func fail(_ message: String) -> BenchmarkBaselineError {
        BenchmarkBaselineError(file: file, line: line, message: message)
      }
      if !sawHeader {
        guard content == header else { throw fail("expected the header '\(header)', found '\(content)'") }
        sawHeader = true
        continue
      }
      let fields = content.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      guard fields.count == 4 else {
        throw fail("expected 4 fields (\(header)), found \(fields.count) in '\(content)'")
      }
      guard !fields[0].isEmpty, !fields[1].isEmpty, !fields[3].isEmpty else {
        throw fail("empty benchmark, parameter or unit in '\(content)'")
      }
      guard let value = Double(fields[2]), value.isFinite, value > 0 else {
        throw fail("value '\(fields[2])' is not a positive number")
      }
      let key = "\(fields[0]),\(fields[1])"
      if let first = seen[key] {
        throw fail("duplicate row for \(fields[0]) \(fields[1]) (first on line \(first))")
      }
      seen[key] = line
      rows.append(
        BenchmarkBaselineRow(benchmark: fields[0], parameter: fields[1], value: value, unit: fields[3], line: line))
    }
    guard sawHeader else {
      throw BenchmarkBaselineError(file: file, line: nil, message: "empty file: expected the header '\(header)'")
    }
    return rows
  }

  static func readFile(_ path: String) throws(BenchmarkBaselineError) -> String {
    do {
      return try TextFile.read(path, limit: InputLimits.benchmarkBaselineBytes)
    } catch {
      throw BenchmarkBaselineError(file: path, line: nil, message: error.reason)
    }
  }
}
