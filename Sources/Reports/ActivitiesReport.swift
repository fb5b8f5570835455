import SimulationEngine
import WidgetModel

/// `activities.csv`: one row per attempt to start a Live Activity for a single device; for a fleet, one row per
/// Live Activity kind and ending with the attempts summed (`started`/`rejected` are then counts).
enum ActivitiesReport: RunReport {
  static let file = "activities.csv"
  static let header =
    "replication,activity,started,rejected,updates_delivered,updates_throttled,ended_by,active_s,lock_screen_s,"
    + "start_time_s,updates_sent,updates_superseded,updates_jetsam,updates_lost\n"

  static func rows(_ result: ReplicationResult, subjects: RunSummary.Subjects) -> String {
    let kinds = subjects.activities
    let end = SimTime.zero + .days(Int64(result.days))
    var text = ""
    if result.devices == 1 {
      for record in result.activities {
        let cells = [
          "\(result.replication)", CSVFormat.text(record.label), record.rejection == nil ? "1" : "0",
          record.rejection == nil ? "0" : "1", "\(record.updatesDelivered)", "\(record.updatesThrottled)",
          record.ending.name,
          CSVFormat.number(record.activeSeconds(simulationEnd: end), decimals: 1),
          CSVFormat.number(record.lockScreenSeconds(simulationEnd: end), decimals: 1),
          CSVFormat.number(record.startTime.seconds, decimals: 1), "\(record.updatesSent)",
          "\(record.updatesSuperseded)",
          "\(record.updatesJetsam)", "\(record.updatesLost)",
        ]
        text += cells.joined(separator: ",") + "\n"
      }
      return text
    }
    for (kind, label) in kinds.enumerated() {
      for ending in ActivityEnding.allCases {
        let totals = result.activityTotals(kind: kind, ending: ending)
        guard totals.attempts > 0 else { continue }
        let rejected = ending.isRejection
        let cells = [
          "\(result.replication)", CSVFormat.text(label), rejected ? "0" : "\(totals.attempts)",
          rejected ? "\(totals.attempts)" : "0", "\(totals.updatesDelivered)", "\(totals.updatesThrottled)",
          ending.name,
          CSVFormat.number(totals.activeSeconds, decimals: 1), CSVFormat.number(totals.lockScreenSeconds, decimals: 1),
          "",
          "\(totals.updatesSent)", "\(totals.updatesSuperseded)", "\(totals.updatesJetsam)", "\(totals.updatesLost)",
        ]
        text += cells.joined(separator: ",") + "\n"
      }
    }
    return text
  }
}
