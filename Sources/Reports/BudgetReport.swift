import WidgetModel

/// `budget.csv`: each instance's budget remaining at the end of every hour (controls only when they have a
/// budget).
enum BudgetReport: RunReport {
  static let file = "budget.csv"
  static let header = "replication,day,hour,widget,budget_remaining\n"

  /// The rows of one replication.
  static func rows(_ result: ReplicationResult, subjects: RunSummary.Subjects) -> String {
    let labels = subjects.instances
    var text = ""
    HourlyRows.forEach(result, labels: labels) { result, day, hour, instance, label in
      guard subjects.instanceBudgeted[instance] else { return }
      let remaining = result.budgetRemaining(day: day, hour: hour, instance: instance)
      text +=
        "\(result.replication),\(day),\(hour),\(CSVFormat.text(label)),\(CSVFormat.number(remaining, decimals: 2))\n"
    }
    return text
  }
}
