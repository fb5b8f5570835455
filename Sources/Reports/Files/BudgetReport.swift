import Results
import WidgetModel

/// `budget.csv`: each instance's budget remaining at the end of every hour (controls only when they have a
/// budget).
enum BudgetReport: RunReport {
  static let file = "budget.csv"
  static let columns = "day,hour,widget,budget_remaining\n"

  static func rows(_ result: ReplicationResult, _ scope: ReportScope) -> String {
    let labels = scope.subjects.instances
    var text = ""
    HourlyRows.forEach(result, labels: labels) { result, day, hour, instance, label in
      guard scope.subjects.instanceBudgeted[instance] else { return }
      let remaining = result.budgetRemaining(day: day, hour: hour, instance: instance)
      text +=
        "\(scope.lead)\(day),\(hour),\(CSVFormat.text(label)),\(CSVFormat.number(remaining, decimals: 2))\n"
    }
    return text
  }
}
