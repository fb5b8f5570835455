import Results
import WidgetModel

/// `energy.csv`: joules per device by hour, subject (widget instance, `device`, `widget_push`, Live Activity,
/// `app`)
/// and component (for a fleet, the mean over its devices).
enum EnergyReport: RunReport {
  static let file = "energy.csv"
  static let columns = "day,hour,widget,subject_kind,component,joules\n"

  static func rows(_ result: ReplicationResult, _ scope: ReportScope) -> String {
    let kinds = scope.subjects.energySubjectKinds
    let subjects = scope.subjects.energySubjects
    let lead = scope.lead
    var csv = CSVBytes()
    let devices = Double(Swift.max(1, result.devices))
    HourlyRows.forEach(result, labels: subjects) { result, day, hour, subject, label in
      let cell = CSVFormat.text(label)
      for component in EnergyComponent.allCases {
        let joules = result.joules(day: day, hour: hour, subject: subject, component: component) / devices
        guard joules != 0 else { continue }
        csv.row(lead, day: day, hour: hour, cell, kinds[subject], component.name)
        csv.number(joules, decimals: 6)
        csv.newline()
      }
    }
    return csv.text
  }
}
