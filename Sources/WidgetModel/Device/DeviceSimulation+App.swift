import Results
import SimulationEngine

/// The host app's runs: how it learns of a data change (at once while it runs, else through a wake
/// channel), its own fetch into the App Group store, and its `reloadTimelines` requests, which reach
/// WidgetKit after a delay and may be ignored just after an open from a widget tap.
extension DeviceSimulation {
  /// The user opens the app (not on a switched-off phone): it fetches, writes the store and reloads as
  /// `app.on_open` says (exempt), and an extension stuck after a jetsam can be launched again [O]. An open to
  /// start a Live Activity never comes from a widget tap (`fromWidgetPossible` false).
  mutating func appOpened(fromWidgetPossible: Bool = true, _ scheduler: inout Scheduler) {
    guard !power.isOff else { return }
    let fromWidget = app.opened(
      length: user.configuration.appSession,
      widgetShare: fromWidgetPossible ? user.configuration.widgetOpenShare : 0,
      ignoreWindow: system.ignoreReloadsAfterWidgetOpen, &scheduler)
    backgroundRefresh.opened(at: scheduler.now)
    appTrace?.append(AppRecord(time: scheduler.now, event: .opened))
    timeline?.appOpened(at: scheduler.now)
    fieldLog?.appOpened(fromWidget: fromWidget, at: scheduler.now)
    recorder.countAppWake(hourIndex: scheduler.now.hourIndex, .foreground, .granted)
    for index in instances.indices { instances[index].machine.appLaunched() }
    _ = appFetch(.foreground, &scheduler)
    reloadOnOpen(.appForeground, &scheduler)
  }

  /// The app's reloads when it comes to the foreground or starts an audio session (`app.on_open`).
  mutating func reloadOnOpen(_ cause: ReloadCause, _ scheduler: inout Scheduler) {
    switch appSettings.onOpen {
    case .reloadAll: requestAppReload(cause, .everyInstance, &scheduler)
    case .reloadKinds:
      for position in openKinds.indices { requestAppReload(cause, .kind(openKinds[position]), &scheduler) }
    case .none: break
    }
  }

  /// An audio or navigation session starts: the app runs, fetches and reloads as `app.on_open` says (exempt).
  mutating func audioStarted(_ scheduler: inout Scheduler) {
    guard !power.isOff else { return }
    app.audioStarted(length: user.configuration.audioSession, &scheduler)
    recorder.countAppWake(hourIndex: scheduler.now.hourIndex, .audioSession, .granted)
    timeline?.add(.appWake(.audioSession, .granted), at: scheduler.now)
    _ = appFetch(.audioSession, &scheduler)
    reloadOnOpen(.audioSession, &scheduler)
  }

  /// The app's own events: its foreground session ends (it submits its background refresh request), its
  /// audio session ends.
  mutating func appSessionEnded(_ event: AppSessionEvent, _ scheduler: inout Scheduler) {
    let wasForeground = app.isForeground
    app.handle(event)
    if wasForeground && !app.isForeground {
      timeline?.appLeftForeground(at: scheduler.now)
      fieldLog?.appLeftForeground(at: scheduler.now)
      backgroundRefresh.submit(&scheduler, &recorder)
    }
  }

  /// A data change of kind `kind` reaches the app if it runs now: it fetches and reloads as `on_change`
  /// says. Otherwise the change waits for the next channel; so it does, unless `listening` (a connection
  /// the app holds while it runs: `app.event_updates: live`), for an app in the foreground or an audio
  /// session. The idealised `always_running` app learns of every change at once.
  mutating func appLearns(_ kind: KindID, listening: Bool = true, _ scheduler: inout Scheduler) {
    guard let channel = app.runningChannel, !power.isOff else { return }
    guard listening || app.alwaysRunning else { return }
    _ = appFetch(channel, &scheduler)
    if data.sources[kind.index].onChange != .none {
      requestAppReload(channel.wake.reloadCause, .changedData(kind), &scheduler)
    }
  }

  /// The system considers the app's background refresh request.
  mutating func backgroundRefreshDue(_ scheduler: inout Scheduler) {
    if power.isOff { return backgroundRefresh.postpone(&scheduler) }
    if app.isForeground { return backgroundRefresh.skipped() }
    let now = scheduler.now
    let outcome = backgroundRefresh.consider(
      forceQuit: app.life == .forceQuit, dormant: app.isDormant(at: now), lowPowerMode: power.isLowPowerMode,
      stateOfCharge: power.battery.stateOfCharge, charging: power.isCharging(at: now), &scheduler)
    guard outcome == .granted else {
      return countLaunch(.backgroundRefresh, outcome, hourIndex: now.hourIndex, at: now)
    }
    backgroundLaunch(.backgroundRefresh, outcome: .granted, hourIndex: now.hourIndex, &scheduler)
    backgroundRefresh.submit(&scheduler, &recorder)
  }

  /// A channel launches the app in the background: it fetches within the time limit, writes the store and
  /// reloads the kinds it found new data for (as their `on_change` says).
  mutating func backgroundLaunch(
    _ channel: AppWakeChannel, outcome: AppWakeOutcome, hourIndex: Int, _ scheduler: inout Scheduler
  ) {
    switch app.launch(channel, at: scheduler.now) {
    case .denied(let denial):
      countLaunch(channel, denial, hourIndex: hourIndex, at: scheduler.now)
    case .run(let cause):
      if let record = channel.wake.fieldRecord { fieldLog?.add(record, at: scheduler.now) }
      let fetched = appFetch(channel, &scheduler)
      app.backgroundTaskEnded()
      countLaunch(channel, fetched ? outcome : .expired, hourIndex: hourIndex, at: scheduler.now)
      guard fetched else { return }
      for kind in changedKinds.indices where changedKinds[kind] && data.sources[kind].onChange != .none {
        requestAppReload(cause, .changedData(KindID(kind)), &scheduler)
      }
    }
  }

  /// The user swipes the app away.
  mutating func appForceQuit(_ scheduler: inout Scheduler) {
    guard !power.isOff else { return }
    app.forceQuit(&scheduler)
    appTrace?.append(AppRecord(time: scheduler.now, event: .forceQuit))
    timeline?.appLeftForeground(at: scheduler.now)
    timeline?.add(.forceQuit, at: scheduler.now)
    fieldLog?.appLeftForeground(at: scheduler.now)
  }

  /// Counts a background launch's outcome (in the hour the chance arose) and traces it at `now`.
  mutating func countLaunch(_ channel: AppWakeChannel, _ outcome: AppWakeOutcome, hourIndex: Int, at now: SimTime) {
    recorder.countAppWake(hourIndex: hourIndex, channel, outcome)
    appTrace?.append(AppRecord(time: now, event: .launch(channel, outcome)))
    timeline?.add(.appWake(channel, outcome), at: now)
  }

  /// The app fetches its data on `channel` now (CPU, the shared radio, server load) and, unless a
  /// background run passes its time limit, writes every kind to the store (`changedKinds`: which were
  /// behind). Returns whether it wrote.
  mutating func appFetch(_ channel: AppWakeChannel, _ scheduler: inout Scheduler) -> Bool {
    let now = scheduler.now
    let stream = app.fetch.borrowed
    let bytes = SampleLimits.size(appSettings.fetch.bytes.sample(stream))
    let cpu = SampleLimits.duration(appSettings.fetch.cpuSeconds.sample(stream))
    recorder.countAppFetch(channel, bytes: bytes)
    recorder.recordFetch(channel.wake.fetchSource, bytes: bytes, at: now, offset: clockOffset)
    let subject = result.appSubject
    processor.bookBuild(
      cpuSeconds: cpu, subject: subject, at: now, appInForeground: app.isForeground, component: .appCPU,
      &recorder)
    let seconds =
      cpu + system.network.latencySeconds
      + transfer(bytes: bytes, subject: subject, at: now, appSide: true)
    if channel.wake.backgroundTimeLimit && !app.isForeground && seconds > appSettings.backgroundTimeLimit.seconds {
      return false
    }
    app.wroteStore(&changedKinds)
    return true
  }

  /// The app calls `reloadTimelines`: the request reaches WidgetKit after `system.app_reload_delay`.
  mutating func requestAppReload(_ cause: ReloadCause, _ targets: ReloadTargets, _ scheduler: inout Scheduler) {
    if fieldLog != nil { logReloadCall(targets, at: scheduler.now) }
    let delay = SimDuration(seconds: Swift.max(0, system.appReloadDelay.sample(appReloadDelayStream)))
    guard delay > .zero else { return appReloadArrived(cause, targets, &scheduler) }
    scheduler.schedule(
      after: delay, kind: AppRequestEvent.reloadRequest.eventKind,
      target: DeviceSimulation.appReloadTarget(cause, targets))
  }

  /// The app's request reaches WidgetKit: ignored just after an open from a widget tap [O], else raised.
  mutating func appReloadArrived(_ cause: ReloadCause, _ targets: ReloadTargets, _ scheduler: inout Scheduler) {
    raise(cause, targets, ignored: scheduler.now < app.ignoreReloadsUntil, &scheduler)
  }

  /// An `appReloadRequest` event's target: the cause in the top byte, bit 23 set for a whole kind
  /// (`.kind`) rather than its changed data, `1 + kind` below it (0: every instance).
  static func appReloadTarget(_ cause: ReloadCause, _ targets: ReloadTargets) -> UInt32 {
    let kind: UInt32
    switch targets {
    case .changedData(let changed): kind = UInt32(changed.index + 1)
    case .kind(let whole): kind = 1 << 23 | UInt32(whole.index + 1)
    default: kind = 0
    }
    return UInt32(cause.rawValue) << 24 | kind
  }

  /// The cause and targets an `appReloadRequest` event's target packs.
  static func appReload(target: UInt32) -> (ReloadCause, ReloadTargets) {
    guard let cause = ReloadCause(rawValue: Int(target >> 24)) else {
      preconditionFailure("bad app reload target \(target)")
    }
    let kind = Int(target & 0x7F_FFFF)
    if kind == 0 { return (cause, .everyInstance) }
    return (cause, target & 1 << 23 != 0 ? .kind(KindID(kind - 1)) : .changedData(KindID(kind - 1)))
  }

  /// Whether a request with this cause spends budget: the trigger table's answer, and for the app's
  /// background reloads `app.background_reloads`.
  func isBudgeted(_ cause: ReloadCause) -> Bool {
    switch cause.trigger.budget {
    case .budgeted: true
    case .exempt: false
    case .appBackground: app.backgroundReloadsBudgeted
    }
  }
}
