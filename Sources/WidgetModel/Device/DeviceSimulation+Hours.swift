import ResultStorage
import SimulationEngine

/// The hour tick: energy books and the battery, budget snapshots and engagement, allowances, hourly rates.
extension DeviceSimulation {
  mutating func hourTick(_ scheduler: inout Scheduler) {
    let now = scheduler.now
    closeHour(now.hourIndex - 1, at: now, &scheduler)
    if now.clockHour == 0 {
      // Midnight: empty tomorrow's cells of a reused result, and add the day's server requests while their
      // minutes are still in the cache (unless the result keeps them for a sum).
      recorder.openDay(now.dayIndex + 1)
    }
    radios.drawHourlyNetwork()
    for index in instances.indices {
      instances[index].budget.setAllowance(allowance(of: index, at: now), at: now)
      if instances[index].machine.isWaiting { scheduleRetry(index, &scheduler) }
    }
    processes.update(hour: now.clockHour, asleep: user.asleep, &scheduler)
    scheduler.schedule(after: SimDuration.hour, kind: LifetimeEvent.hourTick.eventKind)
  }

  /// Closes hour `hourIndex` (ending at `now`): finished radio tails, the power system's hour (a phone that
  /// switched off cuts its radios; one that came back reboots its widgets), then each instance's budget
  /// snapshot and the hour's views, the engagement measure.
  mutating func closeHour(_ hourIndex: Int, at now: SimTime, _ scheduler: inout Scheduler) {
    guard hourIndex >= 0 else { return }
    radios.settle(at: now, &recorder)
    let closed = recorder.closePowerHour(hourIndex, hourlyNetwork: radios.hourlyNetwork)
    recorder.recordPowerHour(hourIndex, closed)
    switch closed.transition {
    case .none: break
    case .switchedOff:
      radios.cut(at: now, &recorder)
      timeline?.radiosCut(at: now)
      power.dropUndrained()
    case .switchedOn:
      raise(.reboot, .everyInstance, &scheduler)
      activities.deviceReturned(&scheduler, &recorder)
    }
    if timeline != nil { tracePower(at: now) }
    if fieldLog != nil { logBattery(at: now) }
    let clockHour = hourIndex % 24
    for index in instances.indices where instances[index].installed {
      instances[index].budget.advance(to: now)
      recorder.recordBudget(hourIndex: hourIndex, instance: index, remaining: instances[index].budget.remaining)
      instances[index].viewsByClockHour[clockHour] = instances[index].viewsThisHour
      instances[index].viewsThisHour = 0
    }
  }

  /// The instance's allowance per 24 h at `time`: between min and max by engagement, times the learning
  /// factor during the learning period, times Low Power Mode's factor while it is on. A control has
  /// `system.controls.budget` (when it has one, else its requests spend nothing).
  func allowance(of index: Int, at time: SimTime) -> Double {
    if instances[index].surface == .control { return system.controlBudgetPerDay ?? 0 }
    let engagement = Swift.min(1, instances[index].viewsPerDay / budgetSettings.engagedViewsPerDay)
    var allowance = budgetSettings.minPerDay + (budgetSettings.maxPerDay - budgetSettings.minPerDay) * engagement
    if time.dayIndex < budgetSettings.learningDays {
      allowance *= budgetSettings.learningFactor
    }
    if power.isLowPowerMode { allowance *= power.device.lowPowerMode.budgetFactor }
    return allowance
  }

  /// Expected views of a widget at `placement` during clock hour `hour`: the engagement the budget assumes
  /// before it has seen a day of real views.
  static func expectedViews(
    placement: WidgetPlacement, hour: Int, user: UserConfiguration, system: SystemConfiguration,
    smartStackShare: Double = 1.0 / 3.0
  ) -> Double {
    let awake = user.sleep.awakeFraction(ofHour: hour)
    let rule = placement.rule
    switch rule.views {
    case .homeScreen:
      switch rule.homeScreenShare {
      case .every: return user.homeScreenViews[hour] * awake
      case .otherPage: return user.homeScreenViews[hour] * awake * user.otherPageProbability
      case .smartStack: return user.homeScreenViews[hour] * awake * smartStackShare
      }
    case .lockScreen: return user.lockScreenViews[hour] * awake
    case .standby: return system.standbyAtNight ? user.standbyViewsPerHour * (1 - awake) : 0
    case .carplay:
      return user.carplayDrives[hour] * awake * user.carplayDrive.mean / 3_600 * user.carplayViewsPerHour
    case .controlCenter: return user.controlCenterViews[hour] * awake
    case .none: return 0
    }
  }

  /// The share of Home Screen views at which the Smart Stack shows `identity` in clock hour `hour`: the
  /// fixed probability, or (relevance rule) its relevance over the stack's total, the other apps' widgets
  /// filling the stack up to `user.smart_stack.size` (see ``SmartStackRule``).
  static func smartStackShare(
    of identity: WidgetInstanceIdentity, among identities: [WidgetInstanceIdentity], hour: Int,
    _ configuration: ScenarioConfiguration
  ) -> Double {
    let stack = configuration.user.smartStack
    guard stack.rule == .relevance else { return configuration.user.smartStackProbability }
    var total = 0.0
    var members = 0
    for other in identities where other.placement.rule.homeScreenShare == .smartStack {
      total += configuration.widgets[other.widgetIndex].relevance[hour]
      members += 1
    }
    total += Double(Swift.max(0, stack.size - members)) * stack.otherRelevance
    guard total > 0 else { return 0 }
    return configuration.widgets[identity.widgetIndex].relevance[hour] / total
  }

  /// A process's rate in a clock hour, awake or asleep; tabulated once per run by the ``ProcessTable``.
  ///
  /// A process whose events nothing on this device would see has rate 0 and is not simulated: Home Screen
  /// views on a phone without the app's widgets on the Home Screen (a page, another page or the Smart Stack),
  /// Lock Screen views without Lock Screen widgets or Live Activities, Control Center views without controls
  /// there (see ``ViewAudience``). Their events would change no figure, and each process draws from its own
  /// stream, so no other draw moves; leaving them out only saves their work (a fifth of the polling
  /// benchmark's events, half of the light one's).
  func rate(of role: ProcessRole, hour: Int, asleep: Bool, audience: ViewAudience) -> Double {
    let userSettings = user.configuration
    switch role {
    case .homeScreenViews:
      guard audience.homeScreen else { return 0 }
      return asleep ? 0 : userSettings.homeScreenViews[hour]
    case .lockScreenViews:
      guard audience.lockScreen else { return 0 }
      return asleep ? 0 : userSettings.lockScreenViews[hour]
    case .standbyViews: return asleep && standby.isUsed ? userSettings.standbyViewsPerHour : 0
    case .appOpens: return asleep ? 0 : userSettings.appOpensPerAwakeHour(hour)
    case .audioSessions: return asleep ? 0 : userSettings.audioSessionsPerDay / userSettings.sleep.awakeHours
    case .forceQuits: return asleep ? 0 : appSettings.forceQuitsPerDay / userSettings.sleep.awakeHours
    case .environmentChanges: return system.environmentChangesPerDay / 24
    case .reboots: return system.rebootsPerDay / 24
    case .dataChanges(let kind): return data.sources[kind.index].changes[hour]
    case .taps(let instance):
      guard instances[instance.index].installed else { return 0 }
      return asleep ? 0 : widgets[instances[instance.index].widgetIndex].tapsPerDay / userSettings.sleep.awakeHours
    case .activityStarts(let kind):
      return asleep ? 0 : activities.kinds[kind.index].startsPerDay / userSettings.sleep.awakeHours
    case .tokenRotations(let kind):
      return activities.kinds[kind.index].tokenRotationsPerDay / 24 * Double(activities.concurrencySlots)
    case .controlCenterViews:
      guard audience.controlCenter else { return 0 }
      return asleep ? 0 : userSettings.controlCenterViews[hour]
    case .dynamicIslandViews: return asleep ? 0 : userSettings.dynamicIslandViews[hour]
    case .carplayDrives: return asleep ? 0 : userSettings.carplayDrives[hour]
    // Glances are thinned to the drives: they count only while the user drives.
    case .carplayViews: return userSettings.carplayViewsPerHour
    }
  }
}
