import WidgetModel

/// Fleet events that send pushes, drawn by the check's own simulation (no send log replayed): every phone
/// shares them, so the pushes a day, their times and the reloads they bring are alike across phones, on
/// the logs' side and the simulation's. A p-value of such values counts their independent units: days, or
/// the events' occurrences (``GoodnessOfFit/Measure/sharedUnit``).
public struct SharedEvents: Sendable {
  public enum Unit: Sendable {
    case day
    case occurrence
  }

  /// Occurrences of push-sending events in the simulation's measured days (at least 1).
  public let occurrences: Int

  /// The shared events of the check's simulation of `configuration`; nil when no fleet event sends a push.
  init?(_ configuration: ScenarioConfiguration) {
    let events = configuration.events.indices.filter { event in
      PushKind.allCases.contains { configuration.events[event].sends($0, widgets: configuration.widgets) }
    }
    guard !events.isEmpty else { return nil }
    let schedule = FleetEventSchedule(GoodnessOfFit.mixedSeed(configuration), replication: 0)
    let measured = events.reduce(0) { total, event in
      total + schedule.occurrences(event: event, days: configuration.simulatedDays)
        - schedule.occurrences(event: event, days: configuration.warmupDays)
    }
    occurrences = Swift.max(1, measured)
  }
}
