import Results
import SimulationEngine

/// What the device writes to its app's field log (`widgetsim run --field-log`), beyond the one-line
/// records at the events themselves.
extension DeviceSimulation {
  /// The app's `reloadTimelines` call: of one kind, or of every widget (`nil`).
  mutating func logReloadCall(_ targets: ReloadTargets, at now: SimTime) {
    let kind: Int?
    switch targets {
    case .kind(let whole): kind = whole.index
    case .changedData(let changed): kind = data.sources[changed.index].onChange == .reloadKind ? changed.index : nil
    default: kind = nil
    }
    fieldLog?.add(.reloadCall(kind: kind), at: now)
  }

  /// A build of instance `index` ran: its timeline, and the date the timeline's policy asks for (what the
  /// app hands WidgetKit, without the system's lateness).
  mutating func logTimeline(_ index: Int, at now: SimTime) {
    let timeline = instances[index].timeline
    fieldLog?.add(
      .timeline(
        widget: instances[index].widgetIndex, next: timeline.nextReloadDate(after: now), entries: timeline.entries),
      at: now)
  }

  /// The battery at the end of an hour.
  mutating func logBattery(at now: SimTime) {
    fieldLog?.add(
      .battery(
        level: recorder.power.battery.stateOfCharge, lowPowerMode: recorder.power.isLowPowerMode,
        charging: recorder.power.isCharging(at: now)),
      at: now)
  }

  /// Simulates replication `replication` of fleet device `device` alone, exactly as a run simulates it (the
  /// same draws: the log draws nothing), and returns what its app could have logged, on the measured days'
  /// clock, in time order, with the device's clock offset ahead of UTC.
  static func fieldLog(
    _ configuration: ScenarioConfiguration, device: Int, replication: Int = 0, schedules: FleetSchedules? = nil
  ) -> FieldLog {
    let prepared = alone(configuration, device: device, replication: replication, schedules: schedules)
    var simulation = prepared.simulation
    simulation.fieldLog = FieldRecorder()
    simulation.simulate()
    let records = simulation.fieldLog?.finish(start: simulation.measuredFrom, end: simulation.end) ?? []
    return FieldLog(device: device, clockOffset: prepared.drawn.clockOffset, records: records)
  }
}

/// A replication's fleet-wide schedules (broadcasts, fleet events), drawn once for the fleet: a caller that
/// simulates many devices alone (``ScenarioRunner/fieldLog(_:device:replication:schedules:)``) hands them to
/// each instead of drawing them again per device.
public struct FleetSchedules: Sendable {
  let broadcasts: BroadcastSchedule
  let events: FleetEventSchedule
  let replication: Int

  public init(_ configuration: ScenarioConfiguration, replication: Int = 0) {
    self.replication = replication
    broadcasts = BroadcastSchedule(configuration, replication: replication)
    events = FleetEventSchedule(configuration, replication: replication)
  }
}

/// What one device's app could have logged in a run: its records, on its local clock (the measured days'
/// clock, after any warm-up), and how far that clock runs ahead of UTC.
public struct FieldLog: Sendable {
  public let device: Int
  public let clockOffset: SimDuration
  public let records: [FieldRecord]

  /// The log as if the app had stopped logging at `micros` on its clock (records after it left out).
  public func ended(at micros: Int64) -> FieldLog {
    FieldLog(device: device, clockOffset: clockOffset, records: records.filter { $0.time.microseconds <= micros })
  }
}

extension DeviceSimulation {
  /// Hands a Live Activity event to the activities (`activity`: a burst's update of that activity, else the
  /// event's `target`); the updates it rendered go to the field log.
  mutating func activityEvent(
    _ event: ActivityEvent, target: UInt32 = 0, activity: ActivityID? = nil, _ scheduler: inout Scheduler
  ) {
    let rendered = activities.renderedUpdates
    if let activity {
      activities.update(activity, poweredOff: power.isOff, &scheduler, &recorder)
    } else {
      activities.handle(event, target: target, poweredOff: power.isOff, &scheduler, &recorder)
    }
    for _ in rendered..<activities.renderedUpdates where fieldLog != nil {
      fieldLog?.add(.activityUpdate(activity: activities.lastRenderedKind), at: scheduler.now)
    }
  }
}
