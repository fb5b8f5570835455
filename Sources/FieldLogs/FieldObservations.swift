/// Everything the field logs show, gathered record by record (``add(_:)``) and summed up per phone at the
/// end (``finish()``): the samples the estimators and the goodness of fit read.
public struct FieldObservations {
  /// Background App Refresh's `interval` (the app's earliest date past each request) and `low_battery`,
  /// from the base scenario: the log shows when the app asked, not for when.
  let refreshInterval: Double
  let lowBattery: Double
  private var devices: [String: FieldDevice] = [:]
  /// Device ids in order of first appearance, so that results do not depend on hashing.
  private var order: [String] = []

  public init(refreshIntervalSeconds: Double, lowBattery: Double) {
    refreshInterval = refreshIntervalSeconds
    self.lowBattery = lowBattery
  }

  /// Adds one record; returns what is wrong with it (a phone's records out of time order), else nil.
  public mutating func add(_ entry: FieldLogEntry) -> String? {
    if devices[entry.device] == nil {
      devices[entry.device] = FieldDevice()
      order.append(entry.device)
    }
    let t = entry.time.utcMicroseconds
    let problem: String? =
      devices[entry.device]!.lastTime > t
      ? "\"t\": \(entry.time.text) is earlier than device \(entry.device)'s previous record: each device's records "
        + "must be in time order (devices may interleave)"
      : nil
    guard problem == nil else { return problem }
    FieldObservations.record(
      entry, into: &devices[entry.device]!, refreshInterval: refreshInterval, lowBattery: lowBattery)
    return nil
  }

  /// Static, so that the phone's state changes in place in the dictionary (a method would copy it).
  private static func record(
    _ entry: FieldLogEntry, into device: inout FieldDevice, refreshInterval: Double, lowBattery: Double
  ) {
    let t = entry.time.utcMicroseconds
    let day = entry.time.localDay
    device.lastTime = t
    device.firstDay = Swift.min(device.firstDay, day)
    device.lastDay = Swift.max(device.lastDay, day)
    switch entry.event {
    case .timeline(let kind, let family, let policy, let next, let entries):
      timeline(
        "\(kind)/\(family ?? "")", at: entry.time, policy: policy, next: next, entries: entries, &device)
    case .reloadCall(let kind):
      for key in device.widgets.keys where kind == nil || key.hasPrefix("\(kind!)/") {
        if device.widgets[key]!.firstTrigger == nil { device.widgets[key]!.firstTrigger = t }
      }
    case .appForeground(let fromWidget):
      device.openTimes.append(t)
      device.openSecondsOfDay.append(entry.time.localSecondOfDay)
      device.openDays.append(day)
      if let fromWidget {
        device.opensWithSource += 1
        if fromWidget { device.opensFromWidget += 1 }
      }
      if device.foregroundSince == nil { device.foregroundSince = t }
      refreshReplaced(at: entry.time, refreshInterval: refreshInterval, &device)
      FieldObservations.trigger(at: t, &device)
    case .appBackground:
      if let since = device.foregroundSince { device.sessions.append(Double(t - since) / 1e6) }
      device.foregroundSince = nil
      device.refreshSubmitted = t
      device.batteryRefusalSince = false
    case .backgroundRefresh:
      device.refreshDays.append(day)
      if let submitted = device.refreshSubmitted, !device.batteryRefusalSince {
        let lateness = Double(t - submitted) / 1e6 - refreshInterval
        let submittedDay = FieldLogTime(utcMicroseconds: submitted, offsetSeconds: entry.time.offsetSeconds).localDay
        if lateness >= 0 { device.refreshLateness.append((lateness, true, submitted, submittedDay)) }
      }
      device.refreshSubmitted = t
      device.batteryRefusalSince = false
      FieldObservations.trigger(at: t, &device)
    case .silentPush:
      device.silentPushDays.append(day)
      device.silentPushSecondsOfDay.append(entry.time.localSecondOfDay)
      FieldObservations.trigger(at: t, &device)
    case .widgetPush:
      device.widgetPushes += 1
      FieldObservations.trigger(at: t, &device)
    case .activityUpdate:
      break
    case .battery(let level, let lowPower, let charging):
      if lowPower == true || (level.map { $0 < lowBattery } ?? false) && charging != true {
        device.batteryRefusalSince = true
      }
    }
  }

  /// Something the app saw at `t` may reload every widget.
  private static func trigger(at t: Int64, _ device: inout FieldDevice) {
    for key in device.widgets.keys where device.widgets[key]!.firstTrigger == nil {
      device.widgets[key]!.firstTrigger = t
    }
  }

  /// The user opened the app before its pending background refresh ran: the request is replaced when the app
  /// leaves the foreground, so its lateness is only known to pass the open (a lower bound).
  private static func refreshReplaced(at time: FieldLogTime, refreshInterval: Double, _ device: inout FieldDevice) {
    guard let submitted = device.refreshSubmitted else { return }
    device.refreshSubmitted = nil
    let bound = Double(time.utcMicroseconds - submitted) / 1e6 - refreshInterval
    guard bound > 0, !device.batteryRefusalSince else { return }
    let submittedDay = FieldLogTime(utcMicroseconds: submitted, offsetSeconds: time.offsetSeconds).localDay
    device.refreshLateness.append((bound, false, submitted, submittedDay))
  }

  /// A timeline of widget `key`: the gap since its last one, and the lateness past the date its last policy
  /// asked for (exact when nothing the app saw could have caused the reload, else a lower bound).
  private static func timeline(
    _ key: String, at time: FieldLogTime, policy: String?, next: FieldLogTime?, entries: Int?,
    _ device: inout FieldDevice
  ) {
    let t = time.utcMicroseconds
    // Out of the dictionary while it changes, so that its arrays grow in place (not copied at every append).
    var widget = device.widgets.removeValue(forKey: key) ?? FieldWidget()
    if let last = widget.lastTime { widget.gaps.append(Double(t - last) / 1e6) }
    // A one-entry `.atEnd` timeline leaves the date to the system: its lateness is not `after_delay`'s.
    if let lastNext = widget.lastNext, widget.lastPolicy != "never",
      !(widget.lastPolicy == "at_end" && widget.lastEntries == 1)
    {
      let seconds = Double(t - lastNext) / 1e6
      let nextSecond = FieldLogTime(utcMicroseconds: lastNext, offsetSeconds: time.offsetSeconds).localSecondOfDay
      if let trigger = widget.firstTrigger {
        // Something else may have caused this reload: the policy's own came no earlier than the trigger.
        let bound = Double(trigger - lastNext) / 1e6
        if bound > 0 { device.lateness.append((key, bound, nextSecond, false)) }
      } else if seconds >= 0 {
        device.lateness.append((key, seconds, nextSecond, true))
      }
    }
    widget.perDay[time.localDay, default: 0] += 1
    if let next { widget.requestedIntervals.append(Double(next.utcMicroseconds - t) / 1e6) }
    widget.lastTime = t
    widget.lastNext = next?.utcMicroseconds
    widget.lastPolicy = policy
    widget.lastEntries = entries
    widget.firstTrigger = nil
    device.widgets[key] = widget
  }

  /// The phones' observations, summed up.
  public func finish() -> FieldSample {
    FieldSample(order.map { devices[$0]! }, refreshIntervalSeconds: refreshInterval)
  }
}
