import WidgetModel

/// `reloads.csv`: every request counted once, by the hour it was made, with its final outcome.
enum ReloadsReport: RunReport {
  static let file = "reloads.csv"
  static let header = "replication,day,hour,widget,subject_kind,cause,outcome,count\n"

  /// The rows of one replication.
  static func rows(_ result: ReplicationResult, subjects: RunSummary.Subjects) -> String {
    let labels = subjects.instances
    let kinds = subjects.instanceKinds
    var text = ""
    HourlyRows.forEach(result, labels: labels) { result, day, hour, instance, label in
      for cause in ReloadCause.allCases {
        for outcome in ReloadOutcome.allCases {
          let count = result.reloadCount(day: day, hour: hour, instance: instance, cause: cause, outcome: outcome)
          guard count > 0 else { continue }
          text +=
            "\(result.replication),\(day),\(hour),\(CSVFormat.text(label)),\(kinds[instance]),\(cause.name),"
            + "\(outcome.name),\(count)\n"
        }
      }
    }
    return text
  }
}
