import SimulationEngine

/// Events to their owners: the device's one switch, and what each process of the table stands for.
extension DeviceSimulation {
  mutating func handle(_ event: Event, scheduler: inout Scheduler) {
    tally.trajectory.add(event)
    guard let kind = DeviceEventKind(rawValue: event.kind.rawValue) else {
      preconditionFailure("unknown device event \(event.kind)")
    }
    switch kind {
    case .hourTick:
      hourTick(&scheduler)
    case .sleep, .wake:
      user.handle(kind, &scheduler)
      processes.update(hour: scheduler.now.clockHour, asleep: user.asleep, &scheduler)
      if kind == .sleep {
        standby.start(&scheduler)
      } else {
        standby.stop(&scheduler)
        for index in instances.indices where instances[index].machine.isWaiting {
          retry(index, &scheduler)
        }
      }
    case .process:
      processFired(ProcessID(Int(event.target)), &scheduler)
    case .appClose, .audioEnd:
      appEvent(kind, &scheduler)
    case .policyReload:
      let instance = InstanceID(Int(event.target))
      instances[instance.index].policyEvent = nil
      raise(.policy, .instance(instance), &scheduler)
    case .retry:
      let instance = InstanceID(Int(event.target))
      instances[instance.index].retryEvent = nil
      retry(instance.index, &scheduler)
    case .standbyRefresh:
      standby.refreshed(&scheduler)
      raise(.standby, .standbyInstances, &scheduler)
    case .widgetPushDelivery:
      let delivered = widgetPush.deliver(
        poweredOff: power.isOff, asleep: user.asleep, nextWake: user.nextWake, clockOffset: clockOffset,
        &scheduler, &result)
      if delivered {
        processor.power.bookPushWake(subject: result.widgetPushSubject, at: scheduler.now, &result.energy)
        raise(.push, .everyInstance, &scheduler)
      }
    case .activityUpdate, .activityDelivery, .activityEnd, .activitySystemEnd, .activityDismiss,
      .activityScheduledStart:
      activities.handle(kind, target: event.target, poweredOff: power.isOff, &scheduler, &result)
    case .appReloadRequest:
      let (cause, targets) = DeviceSimulation.appReload(target: event.target)
      appReloadArrived(cause, targets, &scheduler)
    case .backgroundRefresh:
      backgroundRefreshDue(&scheduler)
    case .silentPushDelivery:
      silentPushArrived(&scheduler)
    }
    assert(instances.allSatisfy(\.machine.isSettled), "an instance was left awaiting a decision or a build")
  }

  /// A Poisson process fired: hand what it stands for to the component it concerns.
  mutating func processFired(_ process: ProcessID, _ scheduler: inout Scheduler) {
    switch processes.fired(process, &scheduler) {
    case .homeScreenViews:
      let visitsOtherPage = user.visitsOtherPage()
      for index in instances.indices {
        let visible: Bool
        switch instances[index].placement {
        case .home: visible = true
        case .homeOtherPage: visible = visitsOtherPage
        case .smartStack:
          visible = instances[index].streams.smartStack.bernoulli(user.configuration.smartStackProbability)
        case .lockScreen, .standby: visible = false
        }
        if visible { view(index, &scheduler) }
      }
    case .lockScreenViews:
      for index in instances.indices where instances[index].placement == .lockScreen {
        view(index, &scheduler)
      }
      activities.viewed(at: scheduler.now, &result)
    case .standbyViews:
      for instance in standby.instances { view(instance.index, &scheduler) }
    case .appOpens:
      appOpened(&scheduler)
    case .audioSessions:
      audioStarted(&scheduler)
    case .forceQuits:
      appForceQuit(&scheduler)
    case .environmentChanges:
      raise(.environmentChange, .everyInstance, &scheduler)
    case .reboots:
      raise(.reboot, .everyInstance, &scheduler)
    case .dataChanges(let kind):
      dataChanged(kind, &scheduler)
    case .taps(let instance):
      raise(.appIntent, .instance(instance), &scheduler)
    case .activityStarts(let kind):
      if !power.isOff { activities.startActivity(kind, poweredOff: false, &scheduler, &result) }
    }
  }

  /// The server's data of a widget kind changed: its instances and the app's store fall behind, the server
  /// may send a WidgetKit push and a silent push, and the app, if it runs now, learns of it.
  mutating func dataChanged(_ kind: KindID, _ scheduler: inout Scheduler) {
    // The source's fields are read in place: a copy would retain its rate table.
    for position in data.sources[kind.index].range {
      instances[data.members[position].index].machine.dataChanged(at: scheduler.now)
    }
    app.dataChanged(kind: kind.index, at: scheduler.now)
    if data.sources[kind.index].push {
      widgetPush.send(
        asleep: user.asleep, nextWake: user.nextWake, clockOffset: clockOffset, &scheduler, &result)
    }
    if data.sources[kind.index].silentPush { silentPush.send(clockOffset: clockOffset, &scheduler, &result) }
    appLearns(kind, &scheduler)
  }

  /// The user sees instance `index`: record what it shows, and give a rarely visited page its catch-up.
  mutating func view(_ index: Int, _ scheduler: inout Scheduler) {
    guard !power.isOff && instances[index].installed else { return }
    instances[index].viewsThisHour += 1
    if let staleness = instances[index].staleness(at: scheduler.now) {
      result.staleness[index].record(staleness: staleness)
      tally.staleness.add(staleness.seconds)
    } else {
      result.staleness[index].recordPlaceholder()
    }
    if instances[index].placement == .homeOtherPage && instances[index].machine.isWaiting {
      raise(.catchUp, .instance(instances[index].id), &scheduler)
    }
  }
}
