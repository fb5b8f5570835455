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

extension CSVBytes {
  /// The cells that start an hourly row, each followed by a comma: `lead` (the replication and its comma, or
  /// nothing), the day, the hour, then three text cells (already quoted where they need to be).
  mutating func row(_ lead: String, day: Int, hour: Int, _ first: String, _ second: String, _ third: String) {
    append(lead)
    integer(day)
    comma()
    integer(hour)
    comma()
    append(first)
    comma()
    append(second)
    comma()
    append(third)
    comma()
  }
}
