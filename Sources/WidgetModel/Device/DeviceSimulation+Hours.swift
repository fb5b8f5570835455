import SimulationEngine

/// The hour tick: energy books and the battery, budget snapshots and engagement, allowances, hourly rates.
extension DeviceSimulation {
  mutating func hourTick(_ scheduler: inout Scheduler) {
    let now = scheduler.now
    closeHour(now.hourIndex - 1, at: now, &scheduler)
    radios.drawHourlyNetwork()
    for index in instances.indices {
      instances[index].budget.setAllowance(allowance(of: index, at: now), at: now)
      if instances[index].machine.isWaiting { scheduleRetry(index, &scheduler) }
    }
    processes.update(hour: now.clockHour, asleep: user.asleep, &scheduler)
    scheduler.schedule(after: SimDuration.hour, kind: DeviceEventKind.hourTick.eventKind)
  }

  /// Closes hour `hourIndex` (ending at `now`): finished radio tails, the power system's hour (a phone that
  /// switched off cuts its radios; one that came back reboots its widgets), then each instance's budget
  /// snapshot and the hour's views, the engagement measure.
  mutating func closeHour(_ hourIndex: Int, at now: SimTime, _ scheduler: inout Scheduler) {
    guard hourIndex >= 0 else { return }
    radios.settle(at: now, &result.energy)
    switch power.closeHour(hourIndex, hourlyNetwork: radios.hourlyNetwork, &result) {
    case .none: break
    case .switchedOff:
      radios.cut(at: now, &result.energy)
      result.energy.undrained = 0
    case .switchedOn:
      raise(.reboot, .everyInstance, &scheduler)
    }
    let clockHour = hourIndex % 24
    for index in instances.indices where instances[index].installed {
      instances[index].budget.advance(to: now)
      result.budgetMilli[hourIndex * instances.count + index] += Int64(
        (instances[index].budget.remaining * 1_000).rounded())
      instances[index].viewsByClockHour[clockHour] = instances[index].viewsThisHour
      instances[index].viewsThisHour = 0
    }
  }

  /// The instance's allowance per 24 h at `time`: between min and max by engagement, times the learning
  /// factor during the learning period, times Low Power Mode's factor while it is on.
  func allowance(of index: Int, at time: SimTime) -> Double {
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

  /// A process's rate in a clock hour, awake or asleep; tabulated once per run by the ``ProcessTable``.
  func rate(of role: ProcessRole, hour: Int, asleep: Bool) -> Double {
    let userSettings = user.configuration
    switch role {
    case .homeScreenViews: return asleep ? 0 : userSettings.homeScreenViews[hour]
    case .lockScreenViews: return asleep ? 0 : userSettings.lockScreenViews[hour]
    case .standbyViews: return asleep && standby.isUsed ? userSettings.standbyViewsPerHour : 0
    case .appOpens: return asleep ? 0 : userSettings.appOpensPerDay / userSettings.sleep.awakeHours
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
    }
  }
}
