import SimulationEngine

/// One device through the simulated days: the user, the app, the widgets and WidgetKit's decisions.
///
/// The engine calls ``handle(_:scheduler:)`` for every event; it switches on ``DeviceEventKind``. Per-event
/// work touches only preallocated arrays: no allocation, closure or `any` call in the loop.
struct DeviceSimulation: EventHandler {
  let user: UserConfiguration
  let budgetSettings: BudgetConfiguration
  let system: SystemConfiguration
  let widgets: [WidgetConfiguration]
  let end: SimTime
  var instances: [InstanceState]
  /// Instance indices per kind index.
  /// The instances of kind k are `kindInstances[kindStart[k]..<kindStart[k + 1]]` (one flat array, so a
  /// data change walks a range instead of retaining an inner array).
  let kindInstances: [Int]
  let kindStart: [Int]
  /// What the app does on a data change, and how often the data changes, per kind index.
  let actionOfKind: [DataChangeAction]
  let dataChangesOfKind: [HourlyRate]
  /// Whether the server sends a widget push on a data change, per kind index.
  let pushOfKind: [Bool]
  let standbyInstances: [Int]
  var processes: [PoissonProcess]
  /// Each process's rate per clock hour, awake and asleep: `[process * 48 + hour * 2 + (asleep ? 1 : 0)]`.
  var rateTable: [Double]
  /// Each instance's build settings, kept apart so a build reads them without copying its widget.
  let buildSettings: [BuildConfiguration]
  var result: ReplicationResult

  let pageVisits: RandomStream
  let appSessionLength: RandomStream
  let audioSessionLength: RandomStream

  var asleep: Bool
  var nextWake = SimTime.zero
  var foreground = AppSession(endKind: .appClose)
  var audio = AppSession(endKind: .audioEnd)
  var standbyEvent: EventHandle?
  /// Every reload that ran, in order, when tracing (tests and diagnostics); nil otherwise.
  var trace: [ReloadRecord]?

  // This device's own figures, folded into `result` when it finishes.
  /// The device's index in the fleet (0 for a single device), which keys its streams and fingerprint.
  let deviceIndex: Int
  /// The trajectory so far: every handled event's time, kind and target folded in, in order.
  var trajectory = TrajectoryFingerprint()
  /// Local clock ahead of UTC (the device's time zone), for server load by UTC minute.
  let clockOffset: SimDuration
  var deviceExhausted: [Bool]
  /// Time of day (µs) of the last immediate budget grant, per `day * instances + instance`; -1 if none.
  var deviceLastGrant: [Int64]
  var deviceReloads = 0
  var deviceStaleness = QuantileSketch()
  var activityRecords: [ActivityRecord] = []

  // WidgetKit pushes: the one pending push of the app's widget topic, and recent deliveries for the budget.
  var widgetPushPending: PendingPush?
  var widgetPushesLastHour = SlidingWindowCounter(length: .hours(1))
  var widgetPushesLastDay = SlidingWindowCounter(length: .days(1))
  let widgetPushDelayStream: RandomStream

  // Live Activities: the kinds, their streams, and every started activity's runtime state (parallel to
  // `activityRecords`).
  let liveActivities: [LiveActivityConfiguration]
  let activityStreams: [ActivityStreams]
  var activityRuntime: [ActivityRuntime] = []
  var activityAttempts: [Int]
  var activeActivities = 0
  /// Activities on the Lock Screen (active, or ended and not yet dismissed).
  var onLockScreen: [Int] = []
  var pushToStart: TokenBucket
  var priorityTenLastHour = SlidingWindowCounter(length: .hours(1))

  // Energy and battery.
  let device: DeviceConfiguration
  let radioConfigurations: [RadioConfiguration]
  var radios = Array(repeating: RadioState(), count: NetworkKind.allCases.count)
  /// The network drawn for this hour when the device picks one at random each hour.
  var hourlyNetwork: NetworkKind?
  let networkStream: RandomStream
  /// The device stays awake after a build until then (a later build inside pays no wake-up).
  var awakeUntil = SimTime.zero
  var battery: Battery
  var lowPowerModeOn = false
  var poweredOff = false
  let awakeShareOfHour: [Double]
  let chargingShareOfHour: [Double]
  let cellularShareOfHour: [Double]

  // Computed, not stored: a stored static would be read through a lazy-initialisation check on every use.
  static var hour: SimDuration { SimDuration(microseconds: 3_600_000_000) }
  static var day: SimDuration { SimDuration(microseconds: 86_400_000_000) }

  /// A device ready to run; its results are added to `aggregate` (a fresh result when nil).
  init(
    configuration: ScenarioConfiguration, replication: Int, device: Int = 0, clockOffset: SimDuration = .zero,
    installed: [Bool]? = nil, into aggregate: consuming ReplicationResult? = nil
  ) {
    user = configuration.user
    deviceIndex = device
    self.clockOffset = clockOffset
    budgetSettings = configuration.budget
    system = configuration.system
    widgets = configuration.widgets
    end = SimTime.zero + .days(Int64(configuration.days))
    asleep = configuration.user.sleep.contains(.zero)

    func stream(_ role: StreamRole, _ label: String = "") -> RandomStream {
      RandomStream(
        seed: StreamSeed(
          scenarioSeed: configuration.seed, replication: UInt64(replication), entity: UInt64(device),
          stream: role.streamID(label: label)))
    }
    pageVisits = stream(.pageVisits)
    widgetPushDelayStream = stream(.widgetPushDelay)
    networkStream = stream(.network)
    self.device = configuration.device
    radioConfigurations = NetworkKind.allCases.map { configuration.device.radios.radio($0) }
    battery = Battery(configuration.device.battery)
    let sleep = configuration.user.sleep
    awakeShareOfHour = DeviceSimulation.shareOfHours { !sleep.contains($0) }
    let charging = configuration.device.charging
    chargingShareOfHour = DeviceSimulation.shareOfHours { charging?.window.contains($0) ?? false }
    let network = configuration.device.network
    cellularShareOfHour = DeviceSimulation.shareOfHours {
      network.scheduled(at: SimDuration(microseconds: $0.microseconds)) != .wifi
    }
    liveActivities = configuration.liveActivities
    activityStreams = configuration.liveActivities.map {
      ActivityStreams(
        updates: stream(.activityUpdates, $0.id), lifetime: stream(.activityLifetime, $0.id),
        render: stream(.activityRender, $0.id))
    }
    activityAttempts = Array(repeating: 0, count: configuration.liveActivities.count)
    pushToStart = TokenBucket(
      capacity: configuration.system.liveActivities.pushToStartBudget,
      perHour: configuration.system.liveActivities.pushToStartRefillPerHour)
    appSessionLength = stream(.appSessionLength)
    audioSessionLength = stream(.audioSessionLength)

    let kinds = configuration.kinds
    let identities = configuration.instances
    var instances: [InstanceState] = []
    var byKind = Array(repeating: [Int](), count: kinds.count)
    for (index, identity) in identities.enumerated() {
      let widget = configuration.widgets[identity.widgetIndex]
      let kindIndex = kinds.firstIndex(of: widget.kind) ?? 0
      byKind[kindIndex].append(index)
      let expected = (0..<24).map {
        DeviceSimulation.expectedViews(
          placement: widget.placement, hour: $0, user: configuration.user, system: configuration.system)
      }
      instances.append(
        InstanceState(
          widgetIndex: identity.widgetIndex, installed: installed?[identity.widgetIndex] ?? true, kindIndex: kindIndex,
          placement: widget.placement,
          timeline: widget.timeline,
          budget: ReloadBudget(refill: configuration.budget.refill, allowance: 0, start: .zero),
          viewsByClockHour: expected, delayStream: stream(.afterDelay, identity.label),
          buildStream: stream(.build, identity.label), visibilityStream: stream(.smartStack, identity.label)))
    }
    self.instances = instances
    buildSettings = identities.map { configuration.widgets[$0.widgetIndex].build }
    kindInstances = byKind.flatMap { $0 }
    kindStart = byKind.reduce(into: [0]) { $0.append($0[$0.count - 1] + $1.count) }
    let dataOfKind = kinds.map { kind in configuration.widgets.first { $0.kind == kind }?.data ?? DataConfiguration() }
    actionOfKind = dataOfKind.map(\.onChange)
    dataChangesOfKind = dataOfKind.map(\.changes)
    pushOfKind = dataOfKind.map(\.push)
    standbyInstances = instances.indices.filter { instances[$0].placement == .standby && instances[$0].installed }

    var processes = [
      PoissonProcess(role: .homeScreenViews, stream: stream(.homeScreenViews)),
      PoissonProcess(role: .lockScreenViews, stream: stream(.lockScreenViews)),
      PoissonProcess(role: .standbyViews, stream: stream(.standbyViews)),
      PoissonProcess(role: .appOpens, stream: stream(.appOpens)),
      PoissonProcess(role: .audioSessions, stream: stream(.audioSessions)),
      PoissonProcess(role: .environmentChanges, stream: stream(.environmentChanges)),
      PoissonProcess(role: .reboots, stream: stream(.reboots)),
    ]
    for (index, kind) in kinds.enumerated() {
      processes.append(PoissonProcess(role: .dataChanges(kind: index), stream: stream(.dataChanges, kind)))
    }
    for (index, identity) in identities.enumerated() where configuration.widgets[identity.widgetIndex].tapsPerDay > 0 {
      processes.append(PoissonProcess(role: .taps(instance: index), stream: stream(.taps, identity.label)))
    }
    for (index, activity) in configuration.liveActivities.enumerated() {
      processes.append(
        PoissonProcess(role: .activityStarts(definition: index), stream: stream(.activityStarts, activity.id)))
    }
    self.processes = processes
    rateTable = []
    // Moved in, not copied: the caller's aggregate arrays stay uniquely referenced, so adding to them never
    // copies them.
    result =
      (consume aggregate)
      ?? ReplicationResult(
        replication: replication, days: configuration.days, instanceCount: instances.count,
        activityKinds: configuration.liveActivities.count)
    result.energy.undrained = 0
    result.energy.deviceWidgetJoules = 0
    deviceExhausted = Array(repeating: false, count: configuration.days * instances.count)
    deviceLastGrant = Array(repeating: -1, count: configuration.days * instances.count)
  }

  /// Simulates one replication of one device.
  static func run(
    configuration: ScenarioConfiguration, replication: Int, device: Int = 0, trace: Bool = false,
    clockOffset: SimDuration = .zero, installed: [Bool]? = nil, into aggregate: consuming ReplicationResult? = nil
  ) -> ReplicationResult {
    var simulation = DeviceSimulation(
      configuration: configuration, replication: replication, device: device, clockOffset: clockOffset,
      installed: installed, into: consume aggregate)
    if trace { simulation.trace = [] }
    var scheduler = Scheduler(capacity: 64 + 4 * simulation.instances.count)
    simulation.start(&scheduler)
    _ = scheduler.run(until: simulation.end, handler: &simulation)
    simulation.finish(&scheduler)
    simulation.result.trace = simulation.trace
    return simulation.takeResult()
  }

  /// Hands the aggregate back without leaving a second reference to its arrays behind.
  mutating func takeResult() -> ReplicationResult {
    let taken = result
    result = ReplicationResult(replication: 0, days: 0, instanceCount: 0)
    return taken
  }

  // MARK: - Start and finish

  mutating func start(_ scheduler: inout Scheduler) {
    var table: [Double] = []
    table.reserveCapacity(processes.count * 48)
    for process in processes {
      for hour in 0..<24 {
        table.append(rate(of: process.role, hour: hour, asleep: false))
        table.append(rate(of: process.role, hour: hour, asleep: true))
      }
    }
    rateTable = table
    for index in instances.indices {
      instances[index].budget = ReloadBudget(
        refill: budgetSettings.refill, allowance: allowance(instance: index, at: .zero), start: .zero)
    }
    scheduler.schedule(at: .zero + DeviceSimulation.hour, kind: DeviceEventKind.hourTick.eventKind)
    drawHourlyNetwork()
    let sleepAt = firstOccurrence(of: user.sleep.from)
    let wakeAt = firstOccurrence(of: user.sleep.to)
    nextWake = wakeAt
    scheduler.schedule(at: sleepAt, kind: DeviceEventKind.sleep.eventKind)
    scheduler.schedule(at: wakeAt, kind: DeviceEventKind.wake.eventKind)
    updateProcessRates(&scheduler)
    if asleep { startStandby(&scheduler) }
    for (index, activity) in liveActivities.enumerated() {
      for time in activity.startsAt {
        scheduler.schedule(
          at: .zero + time.sinceMidnight, kind: DeviceEventKind.activityScheduledStart.eventKind, target: UInt32(index))
      }
    }
    guard system.widgetAddedReload else { return }
    for index in instances.indices where instances[index].installed {
      reload(index, cause: .widgetAdded, outcome: .grantedExempt, requestTime: .zero, budgeted: false, &scheduler)
    }
  }

  mutating func finish(_ scheduler: inout Scheduler) {
    for network in NetworkKind.allCases {
      radios[network.index].cut(at: end, radio: radioConfigurations[network.index], ledger: &result.energy)
    }
    closeEnergyHour(hourIndex: result.days * 24 - 1, at: end, &scheduler)
    recordHourEnd(hourIndex: result.days * 24 - 1, at: end)
    for index in instances.indices {
      if let pending = instances[index].pending {
        count(pending.requestTime, index, pending.cause, .withheldAtEnd)
      }
    }
    foldDevice(&scheduler)
  }

  /// Adds this device's own figures to the aggregate.
  mutating func foldDevice(_ scheduler: inout Scheduler) {
    result.eventsHandled += scheduler.handledEventCount
    result.fingerprint.add(device: deviceIndex, trajectory)
    result.devices += 1
    for index in instances.indices where instances[index].installed { result.instanceDevices[index] += 1 }
    for (cell, exhausted) in deviceExhausted.enumerated() where exhausted { result.exhaustedDevices[cell] += 1 }
    for (cell, time) in deviceLastGrant.enumerated() where time >= 0 {
      result.lastGrantMicros[cell] += time
      result.lastGrantDevices[cell] += 1
    }
    let endings = ActivityEnding.allCases.count
    for record in activityRecords {
      result.activityTotals[record.definition * endings + ActivityEnding(record).rawValue].add(
        record, simulationEnd: end)
    }
    if result.keepsActivityRecords { result.activities += activityRecords }
    let days = Double(result.days)
    result.perDevice.reloadsPerDay.add(Double(deviceReloads) / days)
    if deviceStaleness.count > 0 { result.perDevice.stalenessP95.add(deviceStaleness.quantile(0.95)) }
    result.perDevice.joulesPerDay.add(result.energy.deviceWidgetJoules / days)
  }

  /// The first time at or after the start that the clock shows `time`, strictly after time 0.
  func firstOccurrence(of time: TimeOfDay) -> SimTime {
    let at = SimTime.zero + time.sinceMidnight
    return at > .zero ? at : at + DeviceSimulation.day
  }

  // MARK: - Events

  mutating func handle(_ event: Event, scheduler: inout Scheduler) {
    trajectory.add(event)
    guard let kind = DeviceEventKind(rawValue: event.kind.rawValue) else {
      preconditionFailure("unknown device event \(event.kind)")
    }
    let target = Int(event.target)
    switch kind {
    case .hourTick: hourTick(&scheduler)
    case .sleep:
      asleep = true
      scheduler.schedule(after: DeviceSimulation.day, kind: DeviceEventKind.sleep.eventKind)
      updateProcessRates(&scheduler)
      startStandby(&scheduler)
    case .wake:
      asleep = false
      nextWake = scheduler.now + DeviceSimulation.day
      scheduler.schedule(at: nextWake, kind: DeviceEventKind.wake.eventKind)
      updateProcessRates(&scheduler)
      if let standbyEvent { scheduler.cancel(standbyEvent) }
      standbyEvent = nil
      for index in instances.indices where instances[index].pending != nil {
        attemptPending(index, &scheduler)
      }
    case .process: processFired(target, &scheduler)
    case .appClose: foreground.ended()
    case .audioEnd: audio.ended()
    case .policyReload:
      instances[target].policyEvent = nil
      request(target, cause: .policy, &scheduler)
    case .retry:
      instances[target].retryEvent = nil
      attemptPending(target, &scheduler)
    case .widgetPushDelivery: deliverWidgetPush(&scheduler)
    case .activityUpdate: sendActivityUpdate(target, &scheduler)
    case .activityDelivery: deliverActivityUpdate(target, at: scheduler.now)
    case .activityEnd: activityEndDue(target, &scheduler)
    case .activitySystemEnd: endActivity(target, by: "system", &scheduler)
    case .activityDismiss: dismissActivity(target, at: scheduler.now)
    case .activityScheduledStart:
      scheduler.schedule(after: DeviceSimulation.day, kind: kind.eventKind, target: event.target)
      startActivity(definition: target, &scheduler)
    case .standbyRefresh:
      standbyEvent = scheduler.schedule(
        after: system.standbyRefreshInterval, kind: DeviceEventKind.standbyRefresh.eventKind)
      for index in standbyInstances { request(index, cause: .standby, &scheduler) }
    }
  }

  mutating func processFired(_ index: Int, _ scheduler: inout Scheduler) {
    processes[index].pending = nil
    scheduleNext(process: index, &scheduler)
    switch processes[index].role {
    case .homeScreenViews:
      let visitsOtherPage = pageVisits.bernoulli(user.otherPageProbability)
      for instance in instances.indices {
        let visible: Bool
        switch instances[instance].placement {
        case .home: visible = true
        case .homeOtherPage: visible = visitsOtherPage
        case .smartStack: visible = instances[instance].visibilityStream.bernoulli(user.smartStackProbability)
        case .lockScreen, .standby: visible = false
        }
        if visible { view(instance, &scheduler) }
      }
    case .lockScreenViews:
      for instance in instances.indices where instances[instance].placement == .lockScreen {
        view(instance, &scheduler)
      }
      viewActivities(at: scheduler.now)
    case .standbyViews:
      for instance in standbyInstances { view(instance, &scheduler) }
    case .appOpens:
      foreground.extend(by: SimDuration(seconds: Swift.max(0, user.appSession.sample(appSessionLength))), &scheduler)
      // Launching the app un-sticks extensions stuck after a jetsam [O].
      for instance in instances.indices {
        instances[instance].stuck = false
        request(instance, cause: .appForeground, &scheduler)
      }
    case .audioSessions:
      audio.extend(by: SimDuration(seconds: Swift.max(0, user.audioSession.sample(audioSessionLength))), &scheduler)
      for instance in instances.indices { request(instance, cause: .audioSession, &scheduler) }
    case .environmentChanges:
      for instance in instances.indices { request(instance, cause: .environmentChange, &scheduler) }
    case .reboots:
      for instance in instances.indices { request(instance, cause: .reboot, &scheduler) }
    case .dataChanges(let kind):
      dataChanged(kind: kind, &scheduler)
    case .taps(let instance):
      request(instance, cause: .appIntent, &scheduler)
    case .activityStarts(let definition):
      if !poweredOff { startActivity(definition: definition, &scheduler) }
    }
  }

  mutating func dataChanged(kind: Int, _ scheduler: inout Scheduler) {
    let members = kindStart[kind]..<kindStart[kind + 1]
    for position in members where instances[kindInstances[position]].firstUnseenChange == nil {
      instances[kindInstances[position]].firstUnseenChange = scheduler.now
    }
    let cause: ReloadCause = foreground.isActive ? .appForeground : (audio.isActive ? .audioSession : .appReload)
    if pushOfKind[kind] { sendWidgetPush(&scheduler) }
    switch actionOfKind[kind] {
    case .none: break
    case .reloadKind:
      for position in members { request(kindInstances[position], cause: cause, &scheduler) }
    case .reloadAll:
      for instance in instances.indices { request(instance, cause: cause, &scheduler) }
    }
  }

  /// The user sees instance `index`: record what it shows, and give a rarely visited page its catch-up.
  mutating func view(_ index: Int, _ scheduler: inout Scheduler) {
    guard !poweredOff && instances[index].installed else { return }
    instances[index].viewsThisHour += 1
    if !instances[index].hasContent {
      result.staleness[index].recordPlaceholder()
    } else {
      let staleness = instances[index].firstUnseenChange.map { scheduler.now - $0 } ?? .zero
      result.staleness[index].record(staleness: staleness)
      deviceStaleness.add(staleness.seconds)
    }
    if instances[index].placement == .homeOtherPage && instances[index].pending != nil {
      reload(index, cause: .catchUp, outcome: .grantedExempt, requestTime: scheduler.now, budgeted: false, &scheduler)
    }
  }

  // MARK: - Hours, sleep and rates

  mutating func hourTick(_ scheduler: inout Scheduler) {
    let now = scheduler.now
    let hourIndex = Int(now.microseconds / DeviceSimulation.hour.microseconds)
    closeEnergyHour(hourIndex: hourIndex - 1, at: now, &scheduler)
    recordHourEnd(hourIndex: hourIndex - 1, at: now)
    drawHourlyNetwork()
    for index in instances.indices {
      instances[index].budget.setAllowance(allowance(instance: index, at: now), at: now)
      if instances[index].pending != nil { scheduleRetry(index, &scheduler) }
    }
    updateProcessRates(&scheduler)
    scheduler.schedule(after: DeviceSimulation.hour, kind: DeviceEventKind.hourTick.eventKind)
  }

  /// Budget snapshot and engagement bookkeeping for the hour that ends at `now`.
  mutating func recordHourEnd(hourIndex: Int, at now: SimTime) {
    guard hourIndex >= 0 else { return }
    let clockHour = hourIndex % 24
    for index in instances.indices where instances[index].installed {
      instances[index].budget.advance(to: now)
      result.budgetMilli[hourIndex * instances.count + index] += Int64(
        (instances[index].budget.remaining * 1_000).rounded())
      instances[index].viewsByClockHour[clockHour] = instances[index].viewsThisHour
      instances[index].viewsThisHour = 0
    }
  }

  /// With `device.network.wifi_probability`, draws this hour's network.
  mutating func drawHourlyNetwork() {
    guard let probability = device.network.wifiProbability else { return }
    hourlyNetwork = networkStream.bernoulli(probability) ? .wifi : device.network.cellular
  }

  /// The instance's allowance per 24 h at `time`: between min and max by engagement, times the learning
  /// factor during the learning period.
  func allowance(instance index: Int, at time: SimTime) -> Double {
    var views = 0.0
    for value in instances[index].viewsByClockHour { views += value }
    let engagement = Swift.min(1, views / budgetSettings.engagedViewsPerDay)
    var allowance = budgetSettings.minPerDay + (budgetSettings.maxPerDay - budgetSettings.minPerDay) * engagement
    if time.microseconds / DeviceSimulation.day.microseconds < Int64(budgetSettings.learningDays) {
      allowance *= budgetSettings.learningFactor
    }
    if lowPowerModeOn { allowance *= device.lowPowerMode.budgetFactor }
    return allowance
  }

  /// Expected views of a widget at `placement` during clock hour `hour`: the engagement the budget assumes
  /// before it has seen a day of real views.
  static func expectedViews(
    placement: WidgetPlacement, hour: Int, user: UserConfiguration, system: SystemConfiguration
  ) -> Double {
    let awake = user.sleep.awakeFraction(ofHour: hour)
    switch placement {
    case .home: return user.homeScreenViews[hour] * awake
    case .homeOtherPage: return user.homeScreenViews[hour] * awake * user.otherPageProbability
    case .smartStack: return user.homeScreenViews[hour] * awake * user.smartStackProbability
    case .lockScreen: return user.lockScreenViews[hour] * awake
    case .standby: return system.standbyAtNight ? user.standbyViewsPerHour * (1 - awake) : 0
    }
  }

  /// A process's rate in a clock hour, awake or asleep; tabulated once per run in `rateTable`.
  func rate(of role: ProcessRole, hour: Int, asleep: Bool) -> Double {
    switch role {
    case .homeScreenViews: return asleep ? 0 : user.homeScreenViews[hour]
    case .lockScreenViews: return asleep ? 0 : user.lockScreenViews[hour]
    case .standbyViews:
      return asleep && system.standbyAtNight && !standbyInstances.isEmpty ? user.standbyViewsPerHour : 0
    case .appOpens: return asleep ? 0 : user.appOpensPerDay / user.sleep.awakeHours
    case .audioSessions: return asleep ? 0 : user.audioSessionsPerDay / user.sleep.awakeHours
    case .environmentChanges: return system.environmentChangesPerDay / 24
    case .reboots: return system.rebootsPerDay / 24
    case .dataChanges(let kind):
      return dataChangesOfKind[kind][hour]
    case .taps(let instance):
      guard instances[instance].installed else { return 0 }
      return asleep ? 0 : widgets[instances[instance].widgetIndex].tapsPerDay / user.sleep.awakeHours
    case .activityStarts(let definition):
      return asleep ? 0 : liveActivities[definition].startsPerDay / user.sleep.awakeHours
    }
  }

  /// Re-evaluates every process's rate; a process whose rate changed draws its next event afresh.
  mutating func updateProcessRates(_ scheduler: inout Scheduler) {
    let hour = Int(
      (scheduler.now.microseconds % DeviceSimulation.day.microseconds) / DeviceSimulation.hour.microseconds)
    let column = hour * 2 + (asleep ? 1 : 0)
    for index in processes.indices {
      let rate = rateTable[index * 48 + column]
      if rate == processes[index].ratePerHour && (rate == 0 || processes[index].pending != nil) { continue }
      processes[index].ratePerHour = rate
      if let pending = processes[index].pending { scheduler.cancel(pending) }
      processes[index].pending = nil
      scheduleNext(process: index, &scheduler)
    }
  }

  mutating func scheduleNext(process index: Int, _ scheduler: inout Scheduler) {
    let rate = processes[index].ratePerHour
    guard rate > 0 else { return }
    let gap = SimDuration(seconds: processes[index].stream.exponential(mean: 3_600 / rate))
    processes[index].pending = scheduler.schedule(
      after: gap, kind: DeviceEventKind.process.eventKind, target: UInt32(index))
  }

  mutating func startStandby(_ scheduler: inout Scheduler) {
    guard system.standbyAtNight, !standbyInstances.isEmpty else { return }
    if let standbyEvent { scheduler.cancel(standbyEvent) }
    standbyEvent = scheduler.schedule(after: .zero, kind: DeviceEventKind.standbyRefresh.eventKind)
  }
}
