import ResultStorage
import Results
import SimulationEngine

/// Starting the device's components, and folding its figures into the aggregate at the end.
extension DeviceSimulation {
  mutating func start(_ scheduler: inout Scheduler) {
    var rates: [Double] = []
    // In the order of ``ProcessTable/rateLayout``: process by process, hour by hour, awake then asleep.
    rates.reserveCapacity(ProcessTable.rateLayout.index(processes.count, 0, 0))
    let audience = ViewAudience(instances: instances.values, hasActivities: !activities.kinds.isEmpty)
    for role in processes.roles {
      for hour in 0..<24 {
        rates.append(rate(of: role, hour: hour, asleep: false, audience: audience))
        rates.append(rate(of: role, hour: hour, asleep: true, audience: audience))
      }
    }
    processes.tabulate(rates)
    for index in instances.indices {
      instances[index].budget = ReloadBudget(
        refill: budgetSettings.refill, allowance: allowance(of: index, at: .zero), start: .zero)
    }
    scheduler.schedule(at: .zero + SimDuration.hour, kind: LifetimeEvent.hourTick.eventKind)
    radios.drawHourlyNetwork()
    user.start(&scheduler)
    configureDeferral()
    processes.update(hour: 0, asleep: user.asleep, &scheduler)
    if user.asleep { standby.start(&scheduler) }
    activities.start(&scheduler)
    fleetEvents.start(&scheduler)
    bursts.start(&scheduler)
    // The app was used before the run: its background refresh request is in.
    backgroundRefresh.submit(&scheduler, &recorder)
    if widgetsAdded {
      addedWidgets(&scheduler)
    } else {
      scheduler.schedule(at: .zero + installTime, kind: LifetimeEvent.widgetsAdded.eventKind)
    }
    timeline?.power(
      stateOfCharge: recorder.power.battery.stateOfCharge, lowPowerMode: recorder.power.isLowPowerMode,
      charging: recorder.power.isCharging(at: .zero), off: recorder.power.isOff, at: .zero)
    if fieldLog != nil { logBattery(at: .zero) }
    if processes.hasGates { refreshDeferralGates(&scheduler) }
  }

  /// The user adds the app's widgets (at the start, or at the device's `fleet.install_time`): from now on
  /// they are on its screens, and each gets its widget-added reload.
  mutating func addedWidgets(_ scheduler: inout Scheduler) {
    widgetsAdded = true
    guard system.widgetAddedReload else { return }
    raise(.widgetAdded, .everyInstance, &scheduler)
  }

  mutating func finish(_ scheduler: inout Scheduler) {
    runDeferred(before: end, &scheduler)
    recorder.openAllDays()
    radios.cut(at: end, &recorder)
    for index in launchingPushes.indices {
      if let hour = launchingPushes[index].finish() {
        recorder.countAppWake(hourIndex: hour, launchingPushes[index].wakeChannel, .dropped)
      }
    }
    closeHour(recorder.days * 24 - 1, at: end, &scheduler)
    for index in instances.indices {
      if let waiting = instances[index].machine.waitingRequest {
        count(waiting, instances[index].id, .withheldAtEnd, at: end)
      }
    }
    foldDevice(&scheduler)
  }

  /// Adds this device's own figures to the aggregate.
  mutating func foldDevice(_ scheduler: inout Scheduler) {
    recorder.recordTally(tally, device: deviceIndex, handledEvents: scheduler.handledEventCount)
    for index in instances.indices where instances[index].installed { recorder.countInstalled(instance: index) }
    // Activities started in the warm-up are left out; the rest are timed from the first measured day.
    let shift = measuredFrom - SimTime.zero
    for record in activities.records where record.startTime >= measuredFrom {
      recorder.recordActivity(record, simulationEnd: end, shiftedBack: shift)
    }
    let days = Double(recorder.days) - shift.seconds / 86_400
    let staleness = tally.staleness.count > 0 ? tally.staleness.quantile(0.95) : nil
    recorder.recordDevice(
      reloadsPerDay: Double(tally.reloads) / days, stalenessP95: staleness,
      joulesPerDay: recorder.deviceWidgetJoules / days, group: deviceGroup)
    recorder.recordBatteryShares()
  }
}
