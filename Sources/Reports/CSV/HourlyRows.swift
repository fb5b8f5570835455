import Results
import WidgetModel

/// The order every hourly report follows: day, hour, then the labelled items (instances, push targets,
/// energy subjects).
enum HourlyRows {
  static func forEach(
    _ result: ReplicationResult, labels: [String],
    _ body: (_ result: ReplicationResult, _ day: Int, _ hour: Int, _ instance: Int, _ label: String) -> Void
  ) {
    for day in 0..<result.days {
      for hour in 0..<24 {
        for (instance, label) in labels.enumerated() { body(result, day, hour, instance, label) }
      }
    }
  }
}
