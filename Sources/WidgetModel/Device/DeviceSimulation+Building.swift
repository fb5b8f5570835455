import Results
import SimulationEngine

/// How a device's components are built from the scenario, each with its own streams (labelled by the
/// instance, kind or activity where there are several); the initialiser reads as the list of them.
extension DeviceSimulation {
  /// The group of phones with the same widgets this one is in; nil when there are none.
  static func group(in groups: DeviceGroups, installed: [Bool]?, widgets: Int) -> Int? {
    groups.count > 0 ? groups.group(installed: installed ?? Array(repeating: true, count: widgets)) : nil
  }

  /// The app's process, with its streams.
  static func makeApp(_ configuration: ScenarioConfiguration, _ stream: StreamFactory) -> AppProcess {
    AppProcess(
      kinds: configuration.kinds.count, settings: configuration.app,
      streams: AppStreams(
        sessionLength: stream(.appSessionLength), audioSessionLength: stream(.audioSessionLength),
        widgetOpens: stream(.widgetOpens), fetch: stream(.appFetch)))
  }

  /// The app's Background App Refresh request, with the user's setting drawn for this device.
  static func makeBackgroundRefresh(_ configuration: ScenarioConfiguration, _ stream: StreamFactory)
    -> BackgroundRefresh
  {
    let refresh = configuration.app.backgroundRefresh
    return BackgroundRefresh(
      settings: refresh, expectedOpensPerDay: configuration.user.appOpensPerDay, stream: stream(.backgroundRefresh),
      setting: refresh.enabled && stream(.backgroundRefreshSetting).bernoulli(refresh.enabledProbability))
  }

  /// One channel per push kind that launches the app, in ``PushKind/launching``'s order.
  static func makeLaunchingPushes(_ configuration: ScenarioConfiguration, _ stream: StreamFactory)
    -> [LaunchingPushChannel]
  {
    PushKind.launching.map { kind in
      guard let settings = configuration.system.launchingPush(kind) else {
        preconditionFailure("\(kind) pushes launch the app but have no caps in SystemConfiguration.launchingPush")
      }
      return LaunchingPushChannel(kind, settings: settings, delayStream: stream.launchingPushDelay(kind))
    }
  }

  /// The app's Live Activities, with the broadcast channels as this device receives them.
  static func makeActivities(
    _ configuration: ScenarioConfiguration, replication: Int, device: Int, clockOffset: SimDuration,
    broadcasts: BroadcastSchedule?, _ stream: StreamFactory
  ) -> LiveActivities {
    LiveActivities(
      kinds: configuration.liveActivities, system: configuration.system.liveActivities,
      power: configuration.device.power, clockOffset: clockOffset,
      streams: configuration.liveActivities.map {
        ActivityStreams(
          updates: stream(.activityUpdates, $0.id), lifetime: stream(.activityLifetime, $0.id),
          render: stream(.activityRender, $0.id),
          tokens: $0.tokenRotationsPerDay > 0 ? stream(.tokenAcceptance, $0.id) : nil)
      },
      channels: BroadcastReception(
        channels: configuration.broadcastChannels,
        schedule: broadcastSchedule(broadcasts, configuration, replication: replication), offset: clockOffset),
      dynamicIsland: stream(.dynamicIsland),
      pushToStartLag: configuration.server.pushRatePerSecond.map { rate in
        // The server walks its device list: a phone's place is the real phones before it, each sent one
        // push-to-start of every kind that starts at fixed times.
        let kinds = configuration.liveActivities.count { $0.start == .pushToStart && !$0.startsAt.isEmpty }
        return SimDuration(seconds: Double(device) * configuration.fleet.scale * Double(kinds) / rate)
      } ?? .zero)
  }

  /// The fleet-wide events as this device receives them.
  static func makeFleetEvents(
    _ configuration: ScenarioConfiguration, replication: Int, device: Int, clockOffset: SimDuration,
    installed: [Bool]?, events: FleetEventSchedule?, _ stream: StreamFactory
  ) -> FleetEventReception {
    FleetEventReception(
      configuration, schedule: eventSchedule(events, configuration, replication: replication), device: device,
      offset: clockOffset, installed: installed, audience: { stream(.eventAudience, $0) })
  }

  /// The data kinds whose changes come on their own clock.
  static func makeBursts(_ configuration: ScenarioConfiguration, end: SimTime, _ stream: StreamFactory) -> DataBursts {
    // The closures capture these parts, not the configuration: a closure captures what it names by value,
    // and a copy of the whole configuration retains each of its arrays (on every thread at once, when
    // replications run side by side).
    let (kindKeys, widgetSettings) = (configuration.kinds, configuration.widgets)
    return DataBursts(
      kinds: kindKeys.map { key in
        widgetSettings.first { $0.dataKey == key }?.data ?? DataConfiguration()
      }, eventBursts: configuration.events.contains { $0.followUps > 0 },
      streams: { stream(.scheduledChanges, kindKeys[$0]) }, end: end)
  }

  /// Per data kind: the Live Activity kind its bursts start and update (`starts.on_burst`), if any.
  static func burstActivities(_ configuration: ScenarioConfiguration) -> [ActivityKindID?] {
    let activityKinds = configuration.liveActivities
    return configuration.kinds.map { key in
      activityKinds.firstIndex { $0.burstKind == key }.map(ActivityKindID.init)
    }
  }

  /// StandBy at night and CarPlay while driving, each with the installed instances placed on it.
  static func makeDisplays(_ configuration: ScenarioConfiguration, _ instances: [WidgetInstance]) -> (
    standby: DockedDisplay, carplay: DockedDisplay
  ) {
    let standby = DockedDisplay(
      enabled: configuration.system.standbyAtNight, interval: configuration.system.standbyRefreshInterval,
      instances: instances.filter { $0.placementRule.views == .standby && $0.installed }.map(\.id),
      event: .standbyRefresh)
    let carplay = DockedDisplay(
      enabled: !configuration.user.carplayDrives.isZero, interval: configuration.system.standbyRefreshInterval,
      instances: instances.filter { $0.placementRule.views == .carplay && $0.installed }.map(\.id),
      event: .carplayRefresh)
    return (standby, carplay)
  }

  /// The kinds the app reloads on open (`app.on_open: reload_kinds`).
  static func openKinds(_ configuration: ScenarioConfiguration) -> [KindID] {
    let kinds = configuration.kinds
    switch configuration.app.onOpen {
    case .reloadKinds(let names):
      // Data keys: a widget kind as written, a control kind as `control:KIND`.
      return kinds.indices.filter { names.contains(kinds[$0].replacing("control:", with: "")) }.map(KindID.init)
    case .reloadAll, .none: return []
    }
  }

  /// The scratch result the warm-up runs into, if there is a warm-up: a previous device's spare emptied
  /// rather than made again (making one allocates and zeroes every field, emptying it walks only what that
  /// device touched), or a new one.
  static func warmupResult(
    _ spare: consuming ReplicationResult?, _ configuration: ScenarioConfiguration, replication: Int,
    _ shape: (instances: Int, groups: Int)
  ) -> ReplicationResult? {
    guard configuration.warmupDays > 0 else { return nil }
    let warmupShape = ResultShape(
      days: configuration.warmupDays, instanceCount: shape.instances,
      activityKinds: configuration.liveActivities.count, perSecond: false, events: configuration.events.count,
      deviceGroups: shape.groups)
    if var spare = consume spare, spare.fits(warmupShape, keepsActivityRecords: false) {
      spare.reset(replication: replication)
      spare.openAll()
      return spare
    }
    return ReplicationResult(warmupShape, replication: replication, keepsActivityRecords: false)
  }

  /// The widget instances, each with its streams (labelled by the instance) and its expected views.
  static func makeInstances(
    _ configuration: ScenarioConfiguration, installed: [Bool]?, _ stream: StreamFactory
  ) -> [WidgetInstance] {
    let kinds = configuration.kinds
    let stuckPossible = configuration.system.jetsamStuckProbability > 0
    let identities = configuration.instances
    return identities.enumerated().map { index, identity in
      let widget = configuration.widgets[identity.widgetIndex]
      return WidgetInstance(
        id: InstanceID(index), widgetIndex: identity.widgetIndex, widget: widget, placement: identity.placement,
        installed: installed?[identity.widgetIndex] ?? true, kind: KindID(kinds.firstIndex(of: widget.dataKey) ?? 0),
        refill: configuration.budget.refill,
        expectedViews: (0..<24).map {
          DeviceSimulation.expectedViews(
            placement: identity.placement, hour: $0, user: configuration.user, system: configuration.system,
            smartStackShare: DeviceSimulation.smartStackShare(of: identity, among: identities, hour: $0, configuration))
        },
        streams: InstanceStreams(
          afterDelay: stream(.afterDelay, identity.label), build: stream(.build, identity.label),
          smartStack: stream(.smartStack, identity.label),
          jetsamStuck: stuckPossible ? stream(.jetsamStuck, identity.label) : nil,
          systemChosenDelay: widget.timeline.systemChoosesNextReload
            ? stream(.systemChosenDelay, identity.label) : nil))
    }
  }

  /// The device's Poisson processes, in a fixed order (their indices are event targets).
  static func makeProcesses(_ configuration: ScenarioConfiguration, _ stream: StreamFactory) -> ProcessTable {
    var processes = [
      PoissonProcess(role: .homeScreenViews, stream: stream(.homeScreenViews)),
      PoissonProcess(role: .lockScreenViews, stream: stream(.lockScreenViews)),
      PoissonProcess(role: .standbyViews, stream: stream(.standbyViews)),
      PoissonProcess(role: .appOpens, stream: stream(.appOpens)),
      PoissonProcess(role: .audioSessions, stream: stream(.audioSessions)),
      PoissonProcess(role: .environmentChanges, stream: stream(.environmentChanges)),
      PoissonProcess(role: .reboots, stream: stream(.reboots)),
      PoissonProcess(role: .forceQuits, stream: stream(.forceQuits)),
    ]
    for (index, kind) in configuration.kinds.enumerated() {
      processes.append(PoissonProcess(role: .dataChanges(KindID(index)), stream: stream(.dataChanges, kind)))
    }
    for (index, identity) in configuration.instances.enumerated()
    where configuration.widgets[identity.widgetIndex].tapsPerDay > 0 {
      processes.append(PoissonProcess(role: .taps(InstanceID(index)), stream: stream(.taps, identity.label)))
    }
    for (index, activity) in configuration.liveActivities.enumerated() {
      processes.append(
        PoissonProcess(role: .activityStarts(ActivityKindID(index)), stream: stream(.activityStarts, activity.id)))
    }
    // Processes added since: only where they can fire, so scenarios without them draw exactly as before.
    let placements = Set(configuration.instances.map(\.placement))
    if placements.contains(.controlCenter) {
      processes.append(PoissonProcess(role: .controlCenterViews, stream: stream(.controlCenterViews)))
    }
    if !configuration.liveActivities.isEmpty && !configuration.user.dynamicIslandViews.isZero {
      processes.append(PoissonProcess(role: .dynamicIslandViews, stream: stream(.dynamicIslandViews)))
    }
    if placements.contains(.carplay) && !configuration.user.carplayDrives.isZero {
      processes.append(PoissonProcess(role: .carplayDrives, stream: stream(.carplayDrives)))
      processes.append(PoissonProcess(role: .carplayViews, stream: stream(.carplayViews)))
    }
    for (index, activity) in configuration.liveActivities.enumerated() where activity.tokenRotationsPerDay > 0 {
      processes.append(
        PoissonProcess(role: .tokenRotations(ActivityKindID(index)), stream: stream(.tokenRotations, activity.id)))
    }
    return ProcessTable(processes)
  }
}

/// The fleet-wide schedules a device reads: the run's, or (a device simulated alone) its own. Functions rather
/// than `??`, whose autoclosure would capture (copy) the whole configuration.
private func broadcastSchedule(
  _ given: BroadcastSchedule?, _ configuration: ScenarioConfiguration, replication: Int
) -> BroadcastSchedule {
  if let given { return given }
  return BroadcastSchedule(configuration, replication: replication)
}

private func eventSchedule(
  _ given: FleetEventSchedule?, _ configuration: ScenarioConfiguration, replication: Int
) -> FleetEventSchedule {
  if let given { return given }
  return FleetEventSchedule(configuration, replication: replication)
}
