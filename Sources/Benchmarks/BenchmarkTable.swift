/// Renders benchmark results for people and for tools.
public enum BenchmarkTable {
  /// `benchmark,parameter,value,unit` with the median as value, one row per result, header first.
  public static func csv(_ results: [BenchmarkResult]) -> String {
    var text = "benchmark,parameter,value,unit\n"
    for result in results {
      text += "\(result.benchmark),\(result.parameter),\(format(result.median)),\(result.unit)\n"
    }
    return text
  }

  /// An aligned table with min / median / max of the repetitions.
  public static func text(_ results: [BenchmarkResult]) -> String {
    let header = ["benchmark", "parameter", "min", "median", "max", "unit"]
    let rows =
      [header]
      + results.map {
        [$0.benchmark, $0.parameter, format($0.minimum), format($0.median), format($0.maximum), $0.unit]
      }
    let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
    return rows.map { row in
      row.indices.map { column in
        let cell = row[column]
        let padding = String(repeating: " ", count: widths[column] - cell.count)
        return column >= 2 && column <= 4 ? padding + cell : cell + padding
      }.joined(separator: "  ")
    }.joined(separator: "\n") + "\n"
  }

  /// Two decimals: benchmark figures are not meaningful beyond that.
  static func format(_ value: Double) -> String {
    let hundredths = (value * 100).rounded()
    guard hundredths.isFinite, abs(hundredths) < 1e15 else { return "\(value)" }
    let whole = Int64(hundredths)
    let sign = whole < 0 ? "-" : ""
    let magnitude = whole.magnitude
    let fraction = magnitude % 100
    return "\(sign)\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"
  }
}
