/// The shape of a run's results: what sizes every accumulator.
struct ResultShape {
  let days: Int
  let instanceCount: Int
  let activityKinds: Int
  /// Whether server load is also kept per second (fleets).
  var perSecond = false
  /// Fleet-wide events.
  var events = 0
  /// Groups of phones by the widgets they have (``DeviceGroups``).
  var deviceGroups = 0
  var hours: Int { days * 24 }
  /// Energy subjects: instances, `device`, `widget_push`, each Live Activity kind, `app`.
  var energySubjects: Int { instanceCount + 3 + activityKinds }
}

extension ResultShape {
  /// The shape of a replication's result of `configuration`.
  init(_ configuration: borrowing ScenarioConfiguration) {
    self.init(
      days: configuration.simulatedDays, instanceCount: configuration.instances.count,
      activityKinds: configuration.liveActivities.count, perSecond: configuration.keepsSecondLoad,
      events: configuration.events.count, deviceGroups: DeviceGroups(configuration).count)
  }
}
