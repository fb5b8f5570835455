import SimulationEngine

/// Which random process a stream feeds. With the entity (device) and a label (widget instance or kind),
/// it names the stream, so a process draws the same numbers whatever else the scenario changes
/// (common random numbers): the user's views do not move when a widget's policy does.
enum StreamRole: UInt64 {
  case homeScreenViews = 1
  case lockScreenViews
  case standbyViews
  case appOpens
  case appSessionLength
  case audioSessions
  case audioSessionLength
  case environmentChanges
  case reboots
  case pageVisits
  case dataChanges
  case taps
  case afterDelay
  case build
  case smartStack
  case widgetPushDelay
  case activityStarts
  case activityUpdates
  case activityLifetime
  case activityRender
  case jetsamStuck
  case network
  /// When a one-entry `.atEnd` timeline's next reload falls due (the system's choice).
  case systemChosenDelay
  /// The app: its fetches, whether an open came from a widget tap, background refresh lateness and the
  /// user's setting, force-quits, the delivery delays of pushes that launch it (one stream per kind,
  /// ``StreamFactory/launchingPushDelay(_:)``), and the delay of its reload requests.
  case appFetch
  case widgetOpens
  case backgroundRefresh
  case backgroundRefreshSetting
  case forceQuits
  case launchingPushDelay
  case appReloadDelay
  /// Fleet-wide: a broadcast channel's update times (entity ``BroadcastSchedule/fleetEntity``).
  case broadcastUpdates
  /// Dynamic Island glances and whether each expands; Control Center views; which widget a Smart Stack
  /// shows; CarPlay drives, their length and glances; Live Activity push-token rotations.
  case dynamicIslandViews
  case dynamicIsland
  case controlCenterViews
  case smartStackRotation
  case carplayDrives
  case carplayDrive
  case carplayViews
  case tokenRotations
  /// Which running activity a token rotation belongs to (thinning the kind's rotation process).
  case tokenAcceptance
  /// A fleet-wide event's times and follow-ups (fleet entity); whether a device is in its audience.
  case fleetEvents
  case eventAudience
  /// A kind's changes on its own clock (windows, bursts).
  case scheduledChanges

  /// The stream id: the role in the top byte, a 56-bit FNV-1a hash of the label below it.
  func streamID(label: String = "") -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in label.utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }
    return rawValue << 56 | (hash & ((1 << 56) - 1))
  }
}

/// Makes one device's streams: seeded by (scenario seed, replication, device, role and label).
struct StreamFactory {
  let seed: UInt64
  let replication: Int
  let device: Int

  func callAsFunction(_ role: StreamRole, _ label: String = "") -> RandomStream {
    RandomStream(
      seed: StreamSeed(
        scenarioSeed: seed, replication: UInt64(replication), entity: UInt64(device),
        stream: role.streamID(label: label)))
  }
}

extension StreamFactory {
  /// The delivery delays of a push kind that launches the app (``StreamRole/launchingPushDelayLabel(_:)``).
  func launchingPushDelay(_ kind: PushKind) -> RandomStream {
    self(.launchingPushDelay, StreamRole.launchingPushDelayLabel(kind))
  }
}

extension StreamRole {
  /// The label of a launching push kind's delay stream: none for the silent push (the stream the
  /// fingerprints were recorded with), its name for every other kind, so that a kind added to the table,
  /// wherever its case stands, moves no other stream.
  static func launchingPushDelayLabel(_ kind: PushKind) -> String {
    kind == .silent ? "" : kind.rawValue
  }
}
