import SimulationEngine

/// Fleet-wide events reaching this device: the data change at the occurrence, the pushes after the
/// device's place in the server's fan-out, and how long the first delivery took.
extension DeviceSimulation {
  /// An occurrence of `event`: its data kinds change now (an app running now learns of it in this second
  /// only with `app.event_updates: live`, else at its next fetch); its pushes leave the server after this
  /// device's place in the fan-out.
  mutating func fleetEventHappened(_ event: Int, _ scheduler: inout Scheduler) {
    let step = fleetEvents.fired(event, &scheduler)
    if let activity = fleetEvents.audienceActivity[event], !activities.isRunning(activity) { return }
    let live = appSettings.eventUpdates == .live
    for kind in fleetEvents.kinds[event] {
      if step != 0 { bursts.step(kind.index, by: Int(step)) }
      dataChanged(kind, pushes: false, appListens: live, &scheduler)
    }
    guard fleetEvents.sendsPushes[event] else { return }
    let lag = fleetEvents.lag[event]
    if lag == .zero {
      sendEventPushes(event, &scheduler)
    } else {
      scheduler.schedule(after: lag, kind: FleetWideEvent.push.eventKind, target: UInt32(event))
    }
  }

  /// The server sends this device the event's pushes: one of each kind its data kinds ask for (or its
  /// `pushes`), and an update to every running Live Activity of its activity kinds.
  mutating func sendEventPushes(_ event: Int, _ scheduler: inout Scheduler) {
    let lag = fleetEvents.lag[event]
    if scheduler.now >= measuredFrom { recorder.recordEventPushSent(event, after: lag) }
    let awaits = !fleetEvents.pushKinds[event].isEmpty
    for push in fleetEvents.pushKinds[event] {
      send(push, &scheduler)
    }
    for kind in fleetEvents.activityKinds[event] {
      activities.eventUpdate(kind, poweredOff: power.isOff, &scheduler, &recorder)
    }
    if awaits && fleetEvents.awaitingDelivery[event] == nil {
      fleetEvents.awaitingDelivery[event] = scheduler.now - lag
    }
  }

  /// A WidgetKit or silent push reached the device: every event occurrence waiting for one got it now.
  mutating func eventPushDelivered(at now: SimTime) {
    for event in fleetEvents.awaitingDelivery.indices {
      guard let occurred = fleetEvents.awaitingDelivery[event] else { continue }
      fleetEvents.awaitingDelivery[event] = nil
      if occurred >= measuredFrom { recorder.recordEventPushDelivered(event, after: now - occurred) }
    }
  }
}
