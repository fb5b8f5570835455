import Results
import WidgetModel

/// `push.csv`: pushes by the hour they were sent, target (`widgets` or a Live Activity id) and priority.
enum PushReport: RunReport {
  static let file = "push.csv"
  static let columns = "day,hour,target,priority,sent,delivered,superseded,throttled,lost\n"

  static func rows(_ result: ReplicationResult, _ scope: ReportScope) -> String {
    let targets = scope.subjects.pushTargets
    var text = ""
    HourlyRows.forEach(result, labels: targets) { result, day, hour, target, label in
      for priority in [10, 5] {
        let counts = PushCounter.allCases.map {
          result.pushCount(day: day, hour: hour, target: target, priority: priority, counter: $0)
        }
        guard counts.contains(where: { $0 > 0 }) else { continue }
        let cells = ["\(day)", "\(hour)", CSVFormat.text(label), "\(priority)"] + counts.map(scope.count)
        text += scope.lead + cells.joined(separator: ",") + "\n"
      }
    }
    return text
  }
}
