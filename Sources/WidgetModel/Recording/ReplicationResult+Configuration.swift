import Results
import SimulationEngine

/// A scenario's results: their shape, and what the per-second load says, which needs the scenario's fleet
/// events, pushes and pinned times.
extension ReplicationResult {
  /// An empty result for a replication of `configuration` (a fleet's per-second load included when kept;
  /// Live Activity records for a single device only).
  init(_ configuration: borrowing ScenarioConfiguration, replication: Int) {
    self.init(
      ResultShape(configuration), replication: replication,
      keepsActivityRecords: configuration.fleet.devices == 1)
  }

  /// Derives what the per-second load says: provisioning figures, herds, busiest seconds (call again after
  /// merging).
  public mutating func summariseSeconds(_ configuration: borrowing ScenarioConfiguration) {
    setSecondsSummary(
      ServerSecondsSummary(serverLoad.seconds, configuration, replication: replication, phones: devices))
  }

  /// Whether a configuration's results have this shape (days, instances, Live Activity kinds, fleet-wide
  /// events, per-second load, Live Activity records).
  public func fits(_ configuration: ScenarioConfiguration) -> Bool {
    fits(ResultShape(configuration), keepsActivityRecords: configuration.fleet.devices == 1)
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
    try decodeFields(from: &reader)
  }
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

extension ResultPool {
  /// An empty result for replication `replication` of `configuration` with the shape a fleet worker (or a
  /// single device) needs, reused when one is spare.
  func take(_ configuration: ScenarioConfiguration, replication: Int) -> ReplicationResult {
    take(ResultShape(configuration), replication: replication, keepsActivityRecords: configuration.fleet.devices == 1)
  }
}

extension ServerSecondsSummary {
  /// The summary of `seconds`, the load of replication `replication` of `configuration`'s fleet, recorded by
  /// `phones` simulated phones (a shard's share of them, or all).
  init(_ seconds: ServerSeconds, _ configuration: borrowing ScenarioConfiguration, replication: Int, phones: Int) {
    let scale = configuration.fleet.scale
    self.init(
      seconds, scale: scale, fanOuts: scale > 1 ? FanOutWindows(configuration, replication: replication) : nil,
      rule: seconds.isEmpty ? nil : HerdRule(configuration, replication: replication),
      limits: FleetLoadLimits(configuration), phones: phones)
  }
}

extension FleetLoadLimits {
  /// The most `configuration`'s whole fleet can make in a second: every phone with every widget instance
  /// that fetches, every app wake channel and every Live Activity kind's token registration at once.
  public init(_ configuration: borrowing ScenarioConfiguration) {
    let widgetFetches = configuration.widgets.reduce(0) { $0 + ($1.build.fetchProbability > 0 ? $1.instances : 0) }
    self.init(
      phones: configuration.fleet.represents,
      receivedPerPhone: Double(widgetFetches + AppWakeChannel.allCases.count + configuration.liveActivities.count))
  }
}

extension ServerLoad {
  /// Broadcast channels' updates during the run's UTC days, each one request (recorded once per
  /// replication; the schedule's margins serve only devices in other time zones).
  mutating func recordBroadcasts(_ schedule: BroadcastSchedule, days: Int) {
    let end = SimDuration.days(Int64(days)).microseconds
    for time in schedule.utcMicros where time >= 0 && time < end {
      recordPush(.broadcast, delivered: false, at: SimTime(microseconds: time), offset: .zero)
    }
  }
}
