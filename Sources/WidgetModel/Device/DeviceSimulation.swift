import Results
import SimulationEngine
import Statistics

/// One device through the simulated days, built from components that each own their state and the events
/// addressed to them: the ``User``, the ``AppProcess``, each ``WidgetInstance`` (its ``ReloadMachine`` and
/// budget), the app's ``DataSources``, the ``DockedDisplay``, the ``WidgetPushChannel``, the
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
  var standby: DockedDisplay
  /// The CarPlay display while the user drives (StandBy-style [D]).
  var carplay: DockedDisplay
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
  /// One channel per push kind that launches the app, in ``PushKind/launching``'s order.
  var launchingPushes: [LaunchingPushChannel]
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
  /// The result this device writes into (the aggregate it adds to; a scratch result during the warm-up)
  /// and the power system its consumers report energy to: the one way the device writes down what happened.
  var recorder: DeviceRecorder
  var power: PowerSystem {
    _read { yield recorder.power }
    _modify { yield &recorder.power }
  }
  /// The result, to read (its days, its energy subjects); every write goes through ``recorder``.
  var result: ReplicationResult {
    _read { yield recorder.result }
  }
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
    (deviceIndex, self.clockOffset) = (device, clockOffset)
    let groups = DeviceGroups(configuration)
    deviceGroup = DeviceSimulation.group(in: groups, installed: installed, widgets: configuration.widgets.count)
    budgetSettings = configuration.budget
    system = configuration.system
    widgets = configuration.widgets
    end = SimTime.zero + .days(Int64(configuration.simulatedDays))
    measuredFrom = SimTime.zero + .days(Int64(configuration.warmupDays))
    user = User(configuration.user, pageVisits: stream(.pageVisits))
    appSettings = configuration.app
    app = DeviceSimulation.makeApp(configuration, stream)
    changedKinds = Array(repeating: false, count: configuration.kinds.count)
    appReloadDelayStream = stream(.appReloadDelay)
    widgetPush = WidgetPushChannel(settings: configuration.system.widgetPush, delayStream: stream(.widgetPushDelay))
    launchingPushes = DeviceSimulation.makeLaunchingPushes(configuration, stream)
    backgroundRefresh = DeviceSimulation.makeBackgroundRefresh(configuration, stream)
    radios = Radios(
      configuration.device.radios, selection: configuration.device.network, networkStream: stream(.network))
    processor = Processor(power: configuration.device.power)
    activities = DeviceSimulation.makeActivities(
      configuration, replication: replication, device: device, clockOffset: clockOffset, broadcasts: broadcasts, stream)
    fleetEvents = DeviceSimulation.makeFleetEvents(
      configuration, replication: replication, device: device, clockOffset: clockOffset, installed: installed,
      events: events, stream)
    instances = FixedTable(DeviceSimulation.makeInstances(configuration, installed: installed, stream))
    data = DataSources(configuration: configuration, kindOfInstance: instances.map(\.kind))
    hasOtherPageWidget = instances.contains { $0.placementRule.homeScreenShare == .otherPage && $0.installed }
    bursts = DeviceSimulation.makeBursts(configuration, end: end, stream)
    burstActivities = DeviceSimulation.burstActivities(configuration)
    smartStack = SmartStack(
      instances: instances.values, widgets: configuration.widgets, settings: configuration.user.smartStack,
      rotation: stream(.smartStackRotation))
    (standby, carplay) = DeviceSimulation.makeDisplays(configuration, instances.values)
    carplayDriveStream = stream(.carplayDrive)
    openKinds = DeviceSimulation.openKinds(configuration)
    processes = DeviceSimulation.makeProcesses(configuration, stream)
    let shape = (instances: instances.count, groups: groups.count)
    recorder = DeviceRecorder(
      opening: consume aggregate, configuration, replication: replication, device: device,
      broadcasts: activities.channels.schedule, shape)
    tally = DeviceTally(days: configuration.simulatedDays, instanceCount: instances.count)
    if var scratch = DeviceSimulation.warmupResult(
      consume warmupScratch, configuration, replication: replication, shape)
    {
      recorder.exchangeResult(&scratch)
      heldAggregate = consume scratch
    }
  }

  /// The warm-up is over: from now on the device adds to the aggregate (the power system keeps what its
  /// battery has not yet drained); the device's own figures start again.
  mutating func endWarmup() {
    guard var aggregate = heldAggregate.take() else { return }
    recorder.exchangeResult(&aggregate)
    spareScratch = consume aggregate
    tally.reloads = 0
    tally.staleness = QuantileSketch()
    for index in tally.builds.indices { tally.builds[index] = BuildTally() }
  }
}
