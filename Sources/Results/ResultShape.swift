/// The shape of a run's results: what sizes every accumulator.
package struct ResultShape {
  package let days: Int
  package let instanceCount: Int
  package let activityKinds: Int
  /// Whether server load is also kept per second (fleets).
  package var perSecond = false
  /// Fleet-wide events.
  package var events = 0
  /// Groups of phones by the widgets they have.
  package var deviceGroups = 0
  package var hours: Int { days * 24 }
  /// Energy subjects: instances, `device`, `widget_push`, each Live Activity kind, `app`.
  package var energySubjects: Int { instanceCount + 3 + activityKinds }

  package init(
    days: Int, instanceCount: Int, activityKinds: Int, perSecond: Bool = false, events: Int = 0, deviceGroups: Int = 0
  ) {
    self.days = days
    self.instanceCount = instanceCount
    self.activityKinds = activityKinds
    self.perSecond = perSecond
    self.events = events
    self.deviceGroups = deviceGroups
  }
}
