extension RunSummary {
  /// The columns; `subject_kind`, `statistic` and `ci_method` come last so that scripts reading the first
  /// eight by position keep working.
  public static let header =
    "metric,widget,mean,ci95_low,ci95_high,replications,unit,per,subject_kind,statistic,ci_method\n"

  /// `summary.csv`. A figure the sample cannot estimate has no value and `ci_method` `not_estimable`.
  public func csv() -> String {
    var text = RunSummary.header
    for row in rows {
      let interval = row.interval
      let method = row.estimable ? interval?.method.rawValue ?? "none" : "not_estimable"
      let cells = [
        row.metric, CSVFormat.text(row.widget), CSVFormat.number(row.values.count > 0 ? row.values.mean : .nan),
        CSVFormat.number(interval?.low ?? .nan), CSVFormat.number(interval?.high ?? .nan), "\(row.values.count)",
        row.unit, row.per, row.subjectKind, row.statistic.rawValue, method,
      ]
      text += cells.joined(separator: ",") + "\n"
    }
    return text
  }
}
