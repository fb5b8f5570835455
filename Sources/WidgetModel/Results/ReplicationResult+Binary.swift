import SimulationEngine

/// The exact result in binary (shard files): its shape, then every accumulator in ``ReplicationResult/fields``
/// order. Per-device records and traces are not included (a fleet keeps none).
extension ReplicationResult {
  public func encode(to writer: inout BinaryWriter) {
    precondition(openedDays == days, "encoded a result still being written")
    for value in [replication, days, instanceCount, pushTargetCount] { value.encode(to: &writer) }
    for field in ReplicationResult.fields { field.encode(self, &writer) }
  }

  /// Reads a result written by ``encode(to:)`` for `configuration`'s fleet; its shape must be that
  /// configuration's.
  public init(from reader: inout BinaryReader, configuration: ScenarioConfiguration) throws(BinaryDecodingError) {
    let replication = try Int(from: &reader)
    let days = try Int(from: &reader)
    let instances = try Int(from: &reader)
    let targets = try Int(from: &reader)
    guard
      days == configuration.days && instances == configuration.instances.count
        && targets == 1 + configuration.liveActivities.count
    else {
      throw reader.error(
        "a result of \(days) days, \(instances) instances and \(targets - 1) Live Activity kinds; the scenario has "
          + "\(configuration.days), \(configuration.instances.count) and \(configuration.liveActivities.count)")
    }
    self.init(
      replication: replication, days: days, instanceCount: instances, activityKinds: configuration.liveActivities.count,
      keepsActivityRecords: false, perSecond: configuration.keepsSecondLoad, events: configuration.events.count,
      deviceGroups: DeviceGroups(configuration).count)
    for field in ReplicationResult.fields { try field.decode(&self, &reader) }
  }
}
