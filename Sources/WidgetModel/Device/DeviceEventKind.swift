import SimulationEngine

/// The events of one simulated device. The engine carries them as ``EventKind`` raw values.
enum DeviceEventKind: UInt32 {
  /// Start of a clock hour: budget snapshots, engagement, hourly rates.
  case hourTick
  /// The user falls asleep / wakes (daily, at the sleep window's edges).
  case sleep
  case wake
  /// A Poisson process fired; the target is the process's index.
  case process
  /// The app leaves the foreground; an audio session ends.
  case appClose
  case audioEnd
  /// A widget instance's timeline policy fell due; the target is the instance.
  case policyReload
  /// A withheld request of the instance (the target) may be grantable now.
  case retry
  /// The StandBy display refreshes its widgets.
  case standbyRefresh
  /// The pending WidgetKit push reaches the device.
  case widgetPushDelivery
  /// A Live Activity (the target: its index in the run) sends an update, receives a delayed one, ends by
  /// the app or its final push, is ended by the system, leaves the Lock Screen.
  case activityUpdate
  case activityDelivery
  case activityEnd
  case activitySystemEnd
  case activityDismiss
  /// A Live Activity kind (the target) starts at one of its fixed daily times.
  case activityScheduledStart
  /// The app's `reloadTimelines` request reaches WidgetKit after its delay; the target packs the cause and
  /// the kind (see ``DeviceSimulation/appReloadTarget(_:_:)``).
  case appReloadRequest
  /// The system considers the app's Background App Refresh request.
  case backgroundRefresh
  /// The held background (silent) push reaches the device.
  case silentPushDelivery
  /// A broadcast channel (the target) sends an update to its subscribers.
  case broadcastUpdate
  /// The CarPlay display refreshes its widgets; the drive ends.
  case carplayRefresh
  case carplayEnd
  /// The user adds the app's widgets (`fleet.install_time`).
  case widgetsAdded
  /// A fleet-wide event (the target) happens; the server sends this device its pushes (after its place in
  /// the fan-out).
  case fleetEvent
  case fleetEventPush
  /// A kind's change on its own clock starts (a window's change, a burst's first update); a burst's next
  /// update (see ``DataBursts``).
  case scheduledChange
  case burstUpdate

  var eventKind: EventKind { EventKind(rawValue: rawValue) }
}
