import Results
import WidgetModel

/// `app_wakes.csv`: every chance the host app had to run, by the hour it arose, channel and outcome (with the
/// reason for a denial); rows with a count only. Counts are summed over a fleet's simulated devices.
enum AppWakesReport: RunReport {
  static let file = "app_wakes.csv"
  static let columns = "day,hour,channel,outcome,reason,count\n"

  static func rows(_ result: ReplicationResult, _ scope: ReportScope) -> String {
    var text = ""
    for day in 0..<result.days {
      for hour in 0..<24 {
        for channel in AppWakeChannel.allCases {
          for outcome in AppWakeOutcome.allCases {
            let count = result.appWakeCount(day: day, hour: hour, channel: channel, outcome: outcome)
            guard count > 0 else { continue }
            text +=
              "\(scope.lead)\(day),\(hour),\(channel.name),\(outcome.outcome),\(outcome.reason),\(scope.count(count))\n"
          }
        }
      }
    }
    return text
  }
}
