import SimulationEngine

/// One device through the simulated days, built from components that each own their state and the events
/// addressed to them: the ``User``, the ``AppProcess``, each ``WidgetInstance`` (its ``ReloadMachine`` and
/// budget), the app's ``DataSources``, the ``StandbyDisplay``, the ``WidgetPushChannel``, the
/// ``LiveActivities``, the ``Radios``, the ``Processor`` and the ``PowerSystem``. The device wires them:
/// ``handle(_:scheduler:)`` is a switch that hands each event to its owner, and the device performs the
/// actions components return (a reload, a push wake-up).
///
/// Per-event work touches only preallocated arrays: no allocation, closure or `any` call in the loop.
struct DeviceSimulation: EventHandler {
  let budgetSettings: BudgetConfiguration
  let system: SystemConfiguration
  let widgets: [WidgetConfiguration]
  let appSettings: AppConfiguration
  let end: SimTime
  /// The end of the warm-up: what happens before it goes to a scratch result, not the aggregate.
  let measuredFrom: SimTime
  /// The device's index in the fleet (0 for a single device), which keys its streams and fingerprint.
  let deviceIndex: Int
  /// Local clock ahead of UTC (the device's time zone), for server load by UTC minute.
  let clockOffset: SimDuration

  var user: User
  var app: AppProcess
  var processes: ProcessTable
  var instances: FixedTable<WidgetInstance>
  let data: DataSources
  var standby: StandbyDisplay
  /// The CarPlay display while the user drives (StandBy-style [D]).
  var carplay: StandbyDisplay
  var driving = false
  /// Whether the widgets are on the device's screens yet (`fleet.install_time`), and when they are added.
  var widgetsAdded: Bool
  let installTime: SimDuration
  let carplayDriveStream: RandomStream
  /// Which widget the Smart Stack shows at a Home Screen view (the relevance rule).
  let smartStack: SmartStack
  /// Whether a widget of this device sits on another Home Screen page (views there, catch-up reloads).
  let hasOtherPageWidget: Bool
  /// The kinds the app reloads on open (`app.on_open: reload_kinds`).
  let openKinds: [KindID]
  var widgetPush: WidgetPushChannel
  var backgroundRefresh: BackgroundRefresh
  var silentPush: SilentPushChannel
  /// Delays of the app's `reloadTimelines` requests.
  let appReloadDelayStream: RandomStream
  /// Scratch, per widget kind: which kinds the app's last fetch found new data for (no allocation per run).
  var changedKinds: [Bool]
  var activities: LiveActivities
  var fleetEvents: FleetEventReception
  var bursts: DataBursts
  /// Per data kind: the Live Activity kind its bursts start and update (`starts.on_burst`), if any.
  let burstActivities: [ActivityKindID?]
  var radios: Radios
  var processor: Processor
  var power: PowerSystem

  /// The aggregate this device adds to (a scratch result during the warm-up; its own figures until it ends).
  var result: ReplicationResult
  /// The group of phones with the same widgets this one is in (``DeviceGroups``); nil when there are none.
  let deviceGroup: Int?
  /// The aggregate, set aside while the warm-up runs into a scratch result.
  var heldAggregate: ReplicationResult?
  /// The warm-up's scratch result once the warm-up is over, for the thread's next device to run its warm-up
  /// into (see ``run(_:replication:device:broadcasts:events:into:warmupScratch:)``).
  var spareScratch: ReplicationResult?
  var tally: DeviceTally
  /// When tracing (tests, diagnostics), nil otherwise: every reload that ran, in order; the app's opens,
  /// force-quits and launches; everything a device timeline shows (`--trace`); what the app could have
  /// logged (`--field-log`).
  var trace: [ReloadRecord]?
  var appTrace: [AppRecord]?
  var timeline: TraceRecorder?
  var fieldLog: FieldRecorder?
  /// Whether Poisson firings may wait for the next event at all (tests turn it off to compare).
  var defersFirings = true

  /// A device ready to run; its results are added to `aggregate` (a fresh result when nil).
  init(
    configuration: borrowing ScenarioConfiguration, replication: Int, device: Int = 0, clockOffset: SimDuration = .zero,
    installed: [Bool]? = nil, installTime: SimDuration = .zero, broadcasts: BroadcastSchedule? = nil,
    events: FleetEventSchedule? = nil, into aggregate: consuming ReplicationResult? = nil,
    warmupScratch: consuming ReplicationResult? = nil
  ) {
    self.installTime = installTime
    widgetsAdded = installTime == .zero
    let stream = StreamFactory(seed: configuration.seed, replication: replication, device: device)
    deviceIndex = device
    self.clockOffset = clockOffset
    let groups = DeviceGroups(configuration)
    deviceGroup =
      groups.count > 0
      ? groups.group(installed: installed ?? Array(repeating: true, count: configuration.widgets.count)) : nil
    budgetSettings = configuration.budget
    system = configuration.system
    widgets = configuration.widgets
    end = SimTime.zero + .days(Int64(configuration.simulatedDays))
    measuredFrom = SimTime.zero + .days(Int64(configuration.warmupDays))
    user = User(configuration.user, pageVisits: stream(.pageVisits))
    appSettings = configuration.app
    let kindCount = configuration.kinds.count
    app = AppProcess(
      kinds: kindCount, settings: configuration.app,
      streams: AppStreams(
        sessionLength: stream(.appSessionLength), audioSessionLength: stream(.audioSessionLength),
        widgetOpens: stream(.widgetOpens), fetch: stream(.appFetch)))
    changedKinds = Array(repeating: false, count: kindCount)
    appReloadDelayStream = stream(.appReloadDelay)
    widgetPush = WidgetPushChannel(settings: configuration.system.widgetPush, delayStream: stream(.widgetPushDelay))
    silentPush = SilentPushChannel(settings: configuration.system.silentPush, delayStream: stream(.silentPushDelay))
    let refresh = configuration.app.backgroundRefresh
    backgroundRefresh = BackgroundRefresh(
      settings: refresh, expectedOpensPerDay: configuration.user.appOpensPerDay, stream: stream(.backgroundRefresh),
      setting: refresh.enabled && stream(.backgroundRefreshSetting).bernoulli(refresh.enabledProbability))
    radios = Radios(
      configuration.device.radios, selection: configuration.device.network, networkStream: stream(.network))
    processor = Processor(power: configuration.device.power)
    power = PowerSystem(configuration.device, sleep: configuration.user.sleep)
    activities = LiveActivities(
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
    fleetEvents = FleetEventReception(
      configuration, schedule: eventSchedule(events, configuration, replication: replication), device: device,
      offset: clockOffset, installed: installed, audience: { stream(.eventAudience, $0) })
    instances = FixedTable(DeviceSimulation.makeInstances(configuration, installed: installed, stream))
    data = DataSources(configuration: configuration, kindOfInstance: instances.map(\.kind))
    hasOtherPageWidget = instances.contains { $0.placementRule.homeScreenShare == .otherPage && $0.installed }
    // Closures below capture these parts, not the configuration: a closure captures what it names by value,
    // and a copy of the whole configuration retains each of its arrays (on every thread at once, when
    // replications run side by side).
    let (kindKeys, widgetSettings, activityKinds) = (
      configuration.kinds, configuration.widgets, configuration.liveActivities
    )
    bursts = DataBursts(
      kinds: kindKeys.map { key in
        widgetSettings.first { $0.dataKey == key }?.data ?? DataConfiguration()
      }, eventBursts: configuration.events.contains { $0.followUps > 0 },
      streams: { stream(.scheduledChanges, kindKeys[$0]) }, end: end)
    burstActivities = kindKeys.map { key in
      activityKinds.firstIndex { $0.burstKind == key }.map(ActivityKindID.init)
    }
    smartStack = SmartStack(
      instances: instances.values, widgets: configuration.widgets, settings: configuration.user.smartStack,
      rotation: stream(.smartStackRotation))
    standby = StandbyDisplay(
      enabled: configuration.system.standbyAtNight, interval: configuration.system.standbyRefreshInterval,
      instances: instances.filter { $0.placementRule.views == .standby && $0.installed }.map(\.id),
      event: .standbyRefresh)
    carplay = StandbyDisplay(
      enabled: !configuration.user.carplayDrives.isZero, interval: configuration.system.standbyRefreshInterval,
      instances: instances.filter { $0.placementRule.views == .carplay && $0.installed }.map(\.id),
      event: .carplayRefresh)
    carplayDriveStream = stream(.carplayDrive)
    let kinds = configuration.kinds
    switch configuration.app.onOpen {
    case .reloadKinds(let names):
      // Data keys: a widget kind as written, a control kind as `control:KIND`.
      openKinds = kinds.indices.filter { names.contains(kinds[$0].replacing("control:", with: "")) }.map(KindID.init)
    case .reloadAll, .none: openKinds = []
    }
    processes = DeviceSimulation.makeProcesses(configuration, stream)
    // Moved in, not copied: the caller's aggregate arrays stay uniquely referenced, so adding to them never
    // copies them.
    result =
      (consume aggregate)
      ?? ReplicationResult(
        replication: replication, days: configuration.simulatedDays, instanceCount: instances.count,
        activityKinds: configuration.liveActivities.count, events: configuration.events.count,
        deviceGroups: groups.count)
    result.energy.startDevice()
    // A reused result is emptied day by day, a day ahead of the device (see ``ReplicationResult/open(throughDay:)``).
    result.open(throughDay: configuration.warmupDays + 1)
    tally = DeviceTally(days: configuration.simulatedDays, instanceCount: instances.count)
    // A broadcast channel's update is one request for the whole fleet: device 0 (in every run) books them.
    if device == 0 { result.serverLoad.recordBroadcasts(activities.channels.schedule, days: result.days) }
    if configuration.warmupDays > 0 {
      let warmupShape = ResultShape(
        days: configuration.warmupDays, instanceCount: instances.count,
        activityKinds: configuration.liveActivities.count, perSecond: false, events: configuration.events.count,
        deviceGroups: groups.count)
      // A previous device's scratch is emptied rather than made again: making one allocates and zeroes every
      // field, emptying it walks only what that device touched.
      var scratch: ReplicationResult
      if var spare = consume warmupScratch, spare.fits(warmupShape, keepsActivityRecords: false) {
        spare.reset(replication: replication)
        spare.openAll()
        scratch = spare
      } else {
        scratch = ReplicationResult(warmupShape, replication: replication, keepsActivityRecords: false)
      }
      swap(&result, &scratch)
      heldAggregate = consume scratch
    }
  }

  /// The warm-up is over: from now on the device adds to the aggregate. The battery's pending energy moves
  /// with it; the device's own figures start again.
  mutating func endWarmup() {
    guard var aggregate = heldAggregate.take() else { return }
    swap(&result, &aggregate)
    result.energy.undrained += aggregate.energy.undrained
    spareScratch = consume aggregate
    tally.reloads = 0
    tally.staleness = QuantileSketch()
    for index in tally.builds.indices { tally.builds[index] = BuildTally() }
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

  /// Simulates one replication of a fleet's device as drawn.
  static func run(
    _ drawn: FleetDevice, replication: Int, device: Int = 0, trace: Bool = false,
    broadcasts: BroadcastSchedule? = nil, events: FleetEventSchedule? = nil,
    into aggregate: consuming ReplicationResult? = nil
  ) -> ReplicationResult {
    run(
      configuration: drawn.configuration, replication: replication, device: device, trace: trace,
      clockOffset: drawn.clockOffset, installed: drawn.installed, installTime: drawn.installTime,
      broadcasts: broadcasts, events: events, into: consume aggregate)
  }

  /// As ``run(_:replication:device:trace:broadcasts:events:into:)``, running the warm-up (if any) into
  /// `warmupScratch` when it is a spare of the right shape, and handing the warm-up's scratch back in it:
  /// a thread's devices share one scratch result rather than each making one.
  static func run(
    _ drawn: FleetDevice, replication: Int, device: Int, broadcasts: BroadcastSchedule?, events: FleetEventSchedule?,
    into aggregate: consuming ReplicationResult?, warmupScratch: inout ReplicationResult?
  ) -> ReplicationResult {
    var simulation = DeviceSimulation(
      configuration: drawn.configuration, replication: replication, device: device, clockOffset: drawn.clockOffset,
      installed: drawn.installed, installTime: drawn.installTime, broadcasts: broadcasts, events: events,
      into: consume aggregate, warmupScratch: warmupScratch.take())
    simulation.simulate()
    warmupScratch = simulation.spareScratch.take()
    return simulation.takeResult()
  }

  /// Simulates one replication of one device.
  static func run(
    configuration: ScenarioConfiguration, replication: Int, device: Int = 0, trace: Bool = false,
    clockOffset: SimDuration = .zero, installed: [Bool]? = nil, installTime: SimDuration = .zero,
    broadcasts: BroadcastSchedule? = nil, events: FleetEventSchedule? = nil,
    into aggregate: consuming ReplicationResult? = nil
  ) -> ReplicationResult {
    var simulation = DeviceSimulation(
      configuration: configuration, replication: replication, device: device, clockOffset: clockOffset,
      installed: installed, installTime: installTime, broadcasts: broadcasts, events: events,
      into: consume aggregate)
    if trace {
      simulation.trace = []
      simulation.appTrace = []
    }
    simulation.simulate()
    let shift = simulation.measuredFrom - SimTime.zero
    simulation.result.trace = simulation.trace?.compactMap { $0.shifted(back: shift) }
    simulation.result.appTrace = simulation.appTrace?.compactMap { $0.shifted(back: shift) }
    return simulation.takeResult()
  }

  /// Runs the device from its start to the end of the run: the warm-up into its scratch result, then the
  /// measured days.
  mutating func simulate() {
    var scheduler = Scheduler(capacity: 64 + 4 * instances.count)
    start(&scheduler)
    if heldAggregate != nil {
      _ = scheduler.run(until: measuredFrom, handler: &self)
      runDeferred(before: measuredFrom, &scheduler)
      endWarmup()
    }
    _ = scheduler.run(until: end, handler: &self)
    finish(&scheduler)
  }

  /// Hands the aggregate back without leaving a second reference to its arrays behind.
  mutating func takeResult() -> ReplicationResult {
    result.serverLoad.applyPendingUnlessKept()
    // A shared empty result, not a new one: making one allocates every field, a large share of a light
    // phone's replication. Swapped in, not assigned after a copy: the copy retained and released every
    // array of the result.
    var taken = ReplicationResult.placeholder
    swap(&taken, &result)
    return taken
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
