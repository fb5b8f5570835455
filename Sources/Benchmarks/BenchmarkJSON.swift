import Reports

/// Benchmark figures in the format the common benchmark trackers read: github-action-benchmark's
/// `customBiggerIsBetter` / `customSmallerIsBetter` tools take a JSON list with one entry per figure:
/// `name`, `unit`, `value` (here the median), and the optional strings `range` and `extra`. A list holds
/// figures of one direction only, as each tool reads one: rates (bigger is better) and times per item
/// (smaller is better) go to separate files. A figure without a finite median (a failed measurement) is
/// left out: the trackers take numbers only.
public enum BenchmarkJSON {
  /// The entries of `results` whose unit improves in `direction`, as a JSON list.
  public static func json(_ results: [BenchmarkResult], direction: BenchmarkDirection) -> String {
    let entries = results.filter { BenchmarkDirection(unit: $0.unit) == direction && $0.median.isFinite }.map {
      result in
      let fields: [(String, String)] = [
        ("name", JSONValue.quoted("\(result.benchmark) \(result.parameter)")),
        ("unit", JSONValue.quoted(result.unit)),
        ("value", number(result.median)),
        ("range", JSONValue.quoted("± \(CSVFormat.number((result.maximum - result.minimum) / 2, decimals: 3))")),
        (
          "extra",
          JSONValue.quoted(
            "median of \(result.samples.count) repetitions; min \(CSVFormat.number(result.minimum, decimals: 3)), "
              + "max \(CSVFormat.number(result.maximum, decimals: 3))")
        ),
      ]
      return "  {" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }
    return entries.isEmpty ? "[]\n" : "[\n" + entries.joined(separator: ",\n") + "\n]\n"
  }

  /// How many of `results` improve in `direction`.
  public static func count(_ results: [BenchmarkResult], direction: BenchmarkDirection) -> Int {
    results.filter { BenchmarkDirection(unit: $0.unit) == direction }.count
  }

  static func number(_ value: Double) -> String {
    CSVFormat.number(value, decimals: 6)
  }
}
