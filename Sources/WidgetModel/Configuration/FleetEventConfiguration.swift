import SimulationEngine

/// Which clock a fleet-wide event's times are read on: the same instant everywhere (`utc`: a goal, a
/// breaking story), or the same local time on every device (`local`: lunch, the evening news).
public enum EventClock: String, Sendable, CaseIterable {
  case utc
  case local
}

/// Something that happens to the whole fleet's data at once (a goal, a breaking story, market open), drawn
/// once per replication for every device, unlike a widget's own `data.changes`. Each device in its audience
/// reacts through its configured channels as it would to its own change of the same data.
public struct FleetEventConfiguration: Sendable {
  public var id: String
  public var clock: EventClock
  /// Daily times on `clock`.
  public var times: [TimeOfDay]
  /// Or a rate on `clock` (events per hour by clock hour), drawn once for the fleet.
  public var rate: HourlyRate?
  /// Share of devices in the audience (each device is in it or not for the whole run).
  public var share: Double
  /// Only devices with this widget (index in `widgets`) installed; nil: every device.
  public var audienceWidget: Int?
  /// Only devices running an activity of this kind (index in `live_activities`) at the occurrence.
  public var audienceActivity: Int?
  /// Data keys (``WidgetConfiguration/dataKey``: widget kinds and `control:KIND`) whose data change.
  public var dataKeys: [String]
  /// Live Activity kinds (index in `live_activities`) whose running activities get an update.
  public var activityKinds: [Int]
  /// Updates that follow each event (an order: placed, accepted, picked up, delivered), each `spacing`
  /// after the one before; 0: none.
  public var followUps: Int
  public var followUpSpacing: Distribution?
  /// Or given instants: microseconds since day 0 00:00 on `clock` (a send log replayed by
  /// `check --observed`), each an occurrence.
  public var instants: [Int64] = []
  /// Only these devices (fleet indices, ascending) are in the audience; nil: as `share` says.
  public var audienceDevices: [Int]?
  /// The pushes each occurrence sends, whatever the changed kinds' `on_change` says; nil: as it says.
  public var pushes: Set<PushKind>?

  public init(
    id: String, clock: EventClock = .utc, times: [TimeOfDay] = [], rate: HourlyRate? = nil, share: Double = 1,
    audienceWidget: Int? = nil, dataKeys: [String] = [], activityKinds: [Int] = [], followUps: Int = 0,
    followUpSpacing: Distribution? = nil
  ) {
    self.id = id
    self.clock = clock
    self.times = times
    self.rate = rate
    self.share = share
    self.audienceWidget = audienceWidget
    self.dataKeys = dataKeys
    self.activityKinds = activityKinds
    self.followUps = followUps
    self.followUpSpacing = followUpSpacing
  }

  /// Whether each occurrence sends a push of type `push` to a device in the audience: as ``pushes`` says,
  /// else when a changed kind's `on_change` sends one.
  public func sends(_ push: PushKind, widgets: [WidgetConfiguration]) -> Bool {
    if let pushes { return pushes.contains(push) }
    return widgets.contains { widget in
      dataKeys.contains(widget.dataKey) && widget.data.pushes.contains(push)
    }
  }

  /// The pushes each occurrence sends a device in its audience: one of each kind it ``sends(_:widgets:)``,
  /// and an update to each of its Live Activity kinds.
  public func pushesPerOccurrence(widgets: [WidgetConfiguration]) -> Int {
    PushKind.allCases.count(where: { sends($0, widgets: widgets) }) + activityKinds.count
  }

  /// Whether `device` (a fleet index) is one of `devices` (ascending): in an ``audienceDevices`` audience.
  static func admits(_ device: Int, _ devices: [Int]) -> Bool {
    var (low, high) = (0, devices.count)
    while low < high {
      let middle = (low + high) / 2
      if devices[middle] < device { low = middle + 1 } else { high = middle }
    }
    return low < devices.count && devices[low] == device
  }
}

/// The app's servers: how fast they send pushes.
public struct ServerConfiguration: Sendable {
  /// Push requests per second the server sends to APNs (real devices, not simulated ones): what many phones
  /// are sent at one moment (a fleet event's fan-out, a push-to-start at a fixed time) leaves over time, each
  /// phone after the real phones before it. Nil: all at once.
  public var pushRatePerSecond: Double?
  /// Whether a fleet's server load is also kept per second (the provisioning figures and server_peak.csv);
  /// off saves 19 bytes of memory per second of the run per thread and the time to count them.
  public var perSecond: Bool

  /// A provider sending over a few HTTP/2 connections: about 4,000 pushes a second per core was reported
  /// [O], 600-2,500 when bound by round trips [O], 50,000 with a tuned client [O]; 10,000 is our middle [A].
  public static let standardPushRatePerSecond = 10_000.0

  public init(pushRatePerSecond: Double? = ServerConfiguration.standardPushRatePerSecond, perSecond: Bool = true) {
    self.pushRatePerSecond = pushRatePerSecond
    self.perSecond = perSecond
  }
}
