import Results
import SimulationEngine
import WidgetModel

/// `activities.csv`: one row per attempt to start a Live Activity for a single device and replication; for a
/// fleet, or the mean over replications, one row per Live Activity kind and ending with the attempts summed
/// (`started`/`rejected` are then counts, means per replication over several).
enum ActivitiesReport: RunReport {
  static let file = "activities.csv"
  static let columns =
    "activity,started,rejected,updates_delivered,updates_throttled,ended_by,active_s,lock_screen_s,"
    + "start_time_s,updates_sent,updates_superseded,updates_jetsam,updates_lost\n"

  static func rows(_ result: ReplicationResult, _ scope: ReportScope) -> String {
    let kinds = scope.subjects.activities
    let end = SimTime.zero + .days(Int64(result.days))
    var text = ""
    if result.devices == 1 {
      for record in result.activities {
        let cells = [
          CSVFormat.text(record.label), record.rejection == nil ? "1" : "0",
          record.rejection == nil ? "0" : "1", "\(record.updatesDelivered)", "\(record.updatesThrottled)",
          record.ending.name,
          CSVFormat.number(record.activeSeconds(simulationEnd: end), decimals: 1),
          CSVFormat.number(record.lockScreenSeconds(simulationEnd: end), decimals: 1),
          CSVFormat.number(record.startTime.seconds, decimals: 1), "\(record.updatesSent)",
          "\(record.updatesSuperseded)",
          "\(record.updatesJetsam)", "\(record.updatesLost)",
        ]
        text += scope.lead + cells.joined(separator: ",") + "\n"
      }
      return text
    }
    for (kind, label) in kinds.enumerated() {
      for ending in ActivityEnding.allCases {
        let totals = result.activityTotals(kind: kind, ending: ending)
        guard totals.attempts > 0 else { continue }
        let rejected = ending.isRejection
        let attempts = scope.count(totals.attempts)
        let cells = [
          CSVFormat.text(label), rejected ? "0" : attempts, rejected ? attempts : "0",
          scope.count(totals.updatesDelivered), scope.count(totals.updatesThrottled), ending.name,
          CSVFormat.number(totals.activeSeconds * scope.perReplication, decimals: 1),
          CSVFormat.number(totals.lockScreenSeconds * scope.perReplication, decimals: 1), "",
          scope.count(totals.updatesSent), scope.count(totals.updatesSuperseded), scope.count(totals.updatesJetsam),
          scope.count(totals.updatesLost),
        ]
        text += scope.lead + cells.joined(separator: ",") + "\n"
      }
    }
    return text
  }
}
