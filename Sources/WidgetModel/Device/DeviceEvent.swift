import SimulationEngine

/// An event's kind as the component that owns it names it. The engine carries it as its number
/// (``EventKind``): each owner's enum numbers its events, and the numbers stay as they are, since trajectory
/// fingerprints hash them. ``DeviceEvent`` reads a number back as its owner's event.
protocol DeviceEventCase: RawRepresentable where RawValue == UInt32 {}

extension DeviceEventCase {
  var eventKind: EventKind { EventKind(rawValue: rawValue) }
}

/// The device's own clock: the start of each clock hour (budget snapshots, engagement, hourly rates), and the
/// user adding the app's widgets (`fleet.install_time`).
enum LifetimeEvent: UInt32, DeviceEventCase {
  case hourTick = 0
  case widgetsAdded = 22
}

/// The user (`User`) falls asleep or wakes, daily at the sleep window's edges.
enum UserEvent: UInt32, DeviceEventCase {
  case sleep = 1
  case wake = 2
}

/// A Poisson process of the process table (`ProcessTable`; the target is the process) fired.
enum ProcessEvent: UInt32, DeviceEventCase {
  case fired = 3
}

/// The app's sessions (`AppProcess`): its foreground session or its audio session ends.
enum AppSessionEvent: UInt32, DeviceEventCase {
  case close = 4
  case audioEnd = 5
}

/// The app's requests reach the system: its `reloadTimelines` call reaches WidgetKit after its delay (the
/// target packs the cause and the kind, see ``DeviceSimulation/appReloadTarget(_:_:)``); the system
/// considers its Background App Refresh request (`BackgroundRefresh`).
enum AppRequestEvent: UInt32, DeviceEventCase {
  case reloadRequest = 16
  case backgroundRefresh = 17
}

/// A widget instance (the target): its timeline policy fell due; a withheld request may be grantable now.
enum InstanceEvent: UInt32, DeviceEventCase {
  case policyReload = 6
  case retry = 7
}

/// A display that refreshes its widgets on its own clock (`DockedDisplay`): StandBy's and CarPlay's
/// refreshes, and the end of a drive.
enum DisplayEvent: UInt32, DeviceEventCase {
  case standbyRefresh = 8
  case carplayRefresh = 20
  case carplayEnd = 21
}

/// The pending WidgetKit push (`WidgetPushChannel`) or the held push of a kind that launches the app
/// (`LaunchingPushChannel`; the target is its place in `PushKind.launching`) reaches the device.
enum PushEvent: UInt32, DeviceEventCase {
  case widgetPushDelivery = 9
  case silentPushDelivery = 18
}

/// A Live Activity (`LiveActivities`; the target is the activity) sends an update, receives a delayed one,
/// ends by the app or its final push, is ended by the system, leaves the Lock Screen; a broadcast channel
/// (the target is the channel, `BroadcastReception`) sends an update to its subscribers.
enum ActivityEvent: UInt32, DeviceEventCase {
  case update = 10
  case delivery = 11
  case end = 12
  case systemEnd = 13
  case dismiss = 14
  case broadcastUpdate = 19
}

/// A Live Activity kind (the target) starts at one of its fixed daily times: the device starts it, since a
/// start by the app brings the app to the foreground.
enum ActivityStartEvent: UInt32, DeviceEventCase {
  case scheduled = 15
}

/// A fleet-wide event (`FleetEvents`; the target is the event) happens; the server sends this device its
/// pushes, after its place in the fan-out.
enum FleetWideEvent: UInt32, DeviceEventCase {
  case happened = 23
  case push = 24
}

/// A kind's change on its own clock (`DataBursts`; the target is the kind) starts (a window's change, a
/// burst's first update); a burst's next update (the target is the burst's slot).
enum DataEvent: UInt32, DeviceEventCase {
  case scheduledChange = 25
  case burstUpdate = 26
}

/// The events of one simulated device, by owner: what the device's dispatch switches on.
enum DeviceEvent {
  case lifetime(LifetimeEvent)
  case user(UserEvent)
  case process
  case appSession(AppSessionEvent)
  case appRequest(AppRequestEvent)
  case instance(InstanceEvent)
  case display(DisplayEvent)
  case push(PushEvent)
  case activity(ActivityEvent)
  case activityStart
  case fleet(FleetWideEvent)
  case data(DataEvent)

  /// The owner's event numbered `kind`; nil for a number no owner gives.
  init?(_ kind: EventKind) {
    switch kind.rawValue {
    case 0: self = .lifetime(.hourTick)
    case 1: self = .user(.sleep)
    case 2: self = .user(.wake)
    case 3: self = .process
    case 4: self = .appSession(.close)
    case 5: self = .appSession(.audioEnd)
    case 6: self = .instance(.policyReload)
    case 7: self = .instance(.retry)
    case 8: self = .display(.standbyRefresh)
    case 9: self = .push(.widgetPushDelivery)
    case 10: self = .activity(.update)
    case 11: self = .activity(.delivery)
    case 12: self = .activity(.end)
    case 13: self = .activity(.systemEnd)
    case 14: self = .activity(.dismiss)
    case 15: self = .activityStart
    case 16: self = .appRequest(.reloadRequest)
    case 17: self = .appRequest(.backgroundRefresh)
    case 18: self = .push(.silentPushDelivery)
    case 19: self = .activity(.broadcastUpdate)
    case 20: self = .display(.carplayRefresh)
    case 21: self = .display(.carplayEnd)
    case 22: self = .lifetime(.widgetsAdded)
    case 23: self = .fleet(.happened)
    case 24: self = .fleet(.push)
    case 25: self = .data(.scheduledChange)
    case 26: self = .data(.burstUpdate)
    default: return nil
    }
  }

  /// The event's number, as its owner gives it.
  var eventKind: EventKind {
    switch self {
    case .lifetime(let event): event.eventKind
    case .user(let event): event.eventKind
    case .process: ProcessEvent.fired.eventKind
    case .appSession(let event): event.eventKind
    case .appRequest(let event): event.eventKind
    case .instance(let event): event.eventKind
    case .display(let event): event.eventKind
    case .push(let event): event.eventKind
    case .activity(let event): event.eventKind
    case .activityStart: ActivityStartEvent.scheduled.eventKind
    case .fleet(let event): event.eventKind
    case .data(let event): event.eventKind
    }
  }
}
