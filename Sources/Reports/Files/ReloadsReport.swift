import Results
import WidgetModel

/// `reloads.csv`: every request counted once, by the hour it was made, with its final outcome.
enum ReloadsReport: RunReport {
  static let file = "reloads.csv"
  static let columns = "day,hour,widget,subject_kind,cause,outcome,count\n"

  static func rows(_ result: ReplicationResult, _ scope: ReportScope) -> String {
    let labels = scope.subjects.instances
    let kinds = scope.subjects.instanceKinds
    let lead = scope.lead
    var csv = CSVBytes()
    HourlyRows.forEach(result, labels: labels) { result, day, hour, instance, label in
      let cell = CSVFormat.text(label)
      for cause in ReloadCause.allCases {
        for outcome in ReloadOutcome.allCases {
          let count = result.reloadCount(day: day, hour: hour, instance: instance, cause: cause, outcome: outcome)
          guard count > 0 else { continue }
          csv.row(lead, day: day, hour: hour, cell, kinds[instance], cause.name)
          csv.append(outcome.name)
          csv.comma()
          scope.count(count, into: &csv)
          csv.newline()
        }
      }
    }
    return csv.text
  }
}
