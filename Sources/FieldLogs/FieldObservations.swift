import WidgetModel

/// Everything the field logs show, gathered record by record (``add(_:)``) and summed up per phone at the
/// end (``finish()``): the samples the estimators and the goodness of fit read.
public struct FieldObservations {
  /// What the base scenario says of the app, which the log cannot: Background App Refresh's `interval` and
  /// `low_battery`, and `dormant_after` (seconds; nil: never), past which a request due ends unseen.
  struct Settings {
    let refreshInterval: Double
    let lowBattery: Double
    let dormantAfter: Double?
    /// The push caps (per sliding hour and day) and whether a WidgetKit push waits for the user to wake:
    /// a delivery they held is not the system's delay.
    var pushes = PushRules(silent: LaunchingPushConfiguration(), widget: WidgetPushConfiguration())
  }

  /// What the base scenario says of push delivery: the caps, and whether a WidgetKit push waits for a
  /// sleeping user.
  struct PushRules {
    let silent: LaunchingPushConfiguration
    let widget: WidgetPushConfiguration
  }

  private(set) var settings: Settings
  private var devices = FieldDeviceTable()
  /// The server's sends, by phone, in the order read (a send log need not be in time order), and the last
  /// send of all: past it the server's log says nothing.
  private var sends: [String: [(time: Int64, push: PushKind)]] = [:]
  private var lastSend = Int64.min
  /// The most phones whose sends the sample keeps for the goodness of fit to replay (``SendReplay``): as
  /// many as it simulates, for the sample the check reads (``FieldLogSet/keepSends(of:)``); none otherwise.
  public var replayCapacity = 0

  public init(refreshIntervalSeconds: Double, lowBattery: Double, dormantAfterSeconds: Double? = nil) {
    settings = Settings(
      refreshInterval: refreshIntervalSeconds, lowBattery: lowBattery, dormantAfter: dormantAfterSeconds)
  }

  /// The observations for a base scenario's app.
  public init(base: ScenarioConfiguration) {
    self.init(
      refreshIntervalSeconds: base.app.backgroundRefresh.interval.seconds,
      lowBattery: base.app.backgroundRefresh.lowBattery, dormantAfterSeconds: base.app.dormantAfter?.seconds)
    settings.pushes = PushRules(silent: base.system.silentPush, widget: base.system.widgetPush)
  }

  /// A phone's records a little out of order (the app and its widget extension writing one file) are read
  /// at the previous record's time when at most this far back; further back is an error.
  public static let reorderToleranceMicroseconds: Int64 = 1_000_000

  /// A timeline this soon after a foreground `reload_call` of its widget is that call's (exempt) reload; one
  /// this soon after anything the app saw may be its reload.
  static let callWindowMicroseconds: Int64 = 60_000_000

  /// No phone's log may span more days (the scenario limit on days).
  public static let maximumSpanDays = 3_650

  /// Adds one record; returns what is wrong with it (a phone's records out of time order), else nil.
  public mutating func add(_ entry: FieldLogEntry) -> String? {
    if case .serverSent(let push, _) = entry.event {
      sends[entry.device, default: []].append((entry.time.utcMicroseconds, push))
      lastSend = Swift.max(lastSend, entry.time.utcMicroseconds)
      return nil
    }
    // Phones in order of first appearance, so that results do not depend on hashing.
    let place = devices.placeAdding(entry.device)
    var entry = entry
    let last = devices[place].lastTime
    if last > entry.time.utcMicroseconds {
      guard last - entry.time.utcMicroseconds <= FieldObservations.reorderToleranceMicroseconds else {
        return "\"t\": \(entry.time.text) is earlier than device \(entry.device)'s previous record: each device's "
          + "records must be in time order (devices may interleave; up to 1 s back is read as in order)"
      }
      entry.time = FieldLogTime(utcMicroseconds: last, offsetSeconds: entry.time.offsetSeconds)
    }
    if devices[place].firstDay != .max,
      entry.time.localDay - devices[place].firstDay >= FieldObservations.maximumSpanDays
    {
      return "\"t\": \(entry.time.text): device \(entry.device)'s log would span more than "
        + "\(FieldObservations.maximumSpanDays) days"
    }
    FieldObservations.record(entry, into: &devices[place], settings: settings)
    return nil
  }

  /// Extends how far `device`'s log covers the server's sends to `utcMicroseconds` (at least): a simulated
  /// phone ended where a logged one's log ended covers the sends that one's did, whether or not it logged
  /// anything but a push's arrival after its last replayed send.
  mutating func coverPushes(of device: String, through utcMicroseconds: Int64) {
    guard let place = devices.place(of: device) else { return }
    devices[place].pushCoverageEnd = Swift.max(devices[place].pushCoverageEnd, utcMicroseconds)
  }

  /// Static, so that the phone's state changes in place in the dictionary (a method would copy it).
  private static func record(_ entry: FieldLogEntry, into device: inout FieldDevice, settings: Settings) {
    let t = entry.time.utcMicroseconds
    let day = entry.time.localDay
    device.firstTime = Swift.min(device.firstTime, t)
    device.lastTime = t
    if case .delivered = entry.event {} else { device.pushCoverageEnd = t }
    device.offsetSeconds = entry.time.offsetSeconds
    device.firstDay = Swift.min(device.firstDay, day)
    device.lastDay = Swift.max(device.lastDay, day)
    switch entry.event {
    case .timeline(let kind, let family, let policy, let next, let entries):
      timeline("\(kind)/\(family ?? "")", at: entry.time, policy: policy, next: next, entries: entries, &device)
    case .reloadCall(let kind):
      wakeReloadCall(of: kind, at: t, &device)
      device.lastTrigger = t
      for key in device.widgets.keys where kind == nil || key.hasPrefix("\(kind!)/") {
        if device.widgets[key]!.firstTrigger == nil { device.widgets[key]!.firstTrigger = t }
        if device.foregroundSince != nil { device.widgets[key]!.foregroundCall = t }
      }
    case .appForeground(let fromWidget):
      appRan(at: t, &device)
      device.opens.append(FieldOpen(entry.time))
      if let fromWidget {
        device.opensWithSource += 1
        if fromWidget { device.opensFromWidget += 1 }
      }
      if device.foregroundSince == nil { device.foregroundSince = t }
      refreshReplaced(at: entry.time, settings: settings, &device)
      FieldObservations.trigger(at: t, &device)
    case .appBackground:
      appRan(at: t, &device)
      if let since = device.foregroundSince { device.sessions.append(Double(t - since) / 1e6) }
      device.foregroundSince = nil
      device.refreshSubmitted = t
      (device.batteryRefusalSince, device.refusalBound) = (false, nil)
    case .backgroundRefresh:
      wakeBegan(at: t, silentPush: false, &device)
      refreshRan(at: entry.time, settings: settings, &device)
    case .delivered(.silent):
      wakeBegan(at: t, silentPush: true, &device)
      device.silentPushDays.append(day)
      device.silentPushSecondsOfDay.append(entry.time.localSecondOfDay)
      device.silentPushTimes.append(t)
      FieldObservations.trigger(at: t, &device)
    case .delivered(.widget):
      device.widgetPushTimes.append(t)
      FieldObservations.trigger(at: t, &device)
    case .activityUpdate, .serverSent:
      break
    case .battery(let level, let lowPower, let charging):
      battery(level: level, lowPower: lowPower, charging: charging, at: t, settings: settings, &device)
    }
  }

  /// A Background App Refresh run: the pending request's lateness (exact; a lower bound at the last fine
  /// battery line when the battery gave the system a reason to refuse since), and the next request.
  private static func refreshRan(at time: FieldLogTime, settings: Settings, _ device: inout FieldDevice) {
    let t = time.utcMicroseconds
    device.refreshDays.append(time.localDay)
    if let submitted = device.refreshSubmitted {
      let submittedDay = FieldLogTime(utcMicroseconds: submitted, offsetSeconds: time.offsetSeconds).localDay
      if !device.batteryRefusalSince {
        let lateness = Double(t - submitted) / 1e6 - settings.refreshInterval
        if lateness >= 0 { device.refreshLateness.append((lateness, true, submitted, submittedDay)) }
      } else if let bound = device.refusalBound.map({ Double($0 - submitted) / 1e6 - settings.refreshInterval }),
        bound > 0
      {
        device.refreshLateness.append((bound, false, submitted, submittedDay))
      }
    }
    device.refreshSubmitted = t
    (device.batteryRefusalSince, device.refusalBound) = (false, nil)
    trigger(at: t, &device)
  }

  /// A battery line: Low Power Mode for the timelines, and whether the system had a reason to refuse a
  /// background run since the pending request (the first such line bounds its lateness).
  private static func battery(
    level: Double?, lowPower: Bool?, charging: Bool?, at t: Int64, settings: Settings, _ device: inout FieldDevice
  ) {
    device.lowPower = lowPower ?? device.lowPower
    guard lowPower == true || (level.map { $0 < settings.lowBattery } ?? false) && charging != true else {
      device.lastFineBattery = t
      return
    }
    if !device.batteryRefusalSince {
      device.batteryRefusalSince = true
      device.refusalBound = device.lastFineBattery ?? device.refreshSubmitted
    }
  }

  /// Something the app saw at `t` may reload every widget.
  private static func trigger(at t: Int64, _ device: inout FieldDevice) {
    device.lastTrigger = t
    for key in device.widgets.keys where device.widgets[key]!.firstTrigger == nil {
      device.widgets[key]!.firstTrigger = t
    }
  }

  /// The user opened the app before its pending background refresh ran (or the log ended): the request is
  /// replaced when the app leaves the foreground, so its lateness is only known to pass the open (a lower
  /// bound); no later than the app going dormant (a request due then ends unseen), nor than the battery's
  /// first refusal.
  private static func refreshReplaced(
    at time: FieldLogTime, openAppended: Bool = true, settings: Settings, _ device: inout FieldDevice
  ) {
    guard let submitted = device.refreshSubmitted else { return }
    device.refreshSubmitted = nil
    var end = time.utcMicroseconds
    // The open before this moment (the one just appended is this open itself).
    let before = device.opens.count - (openAppended ? 2 : 1)
    if let dormant = settings.dormantAfter, before >= 0 {
      end = Swift.min(end, device.opens[before].utcMicroseconds + Int64(dormant * 1e6))
    }
    if device.batteryRefusalSince, let bound = device.refusalBound { end = Swift.min(end, bound) }
    let bound = Double(end - submitted) / 1e6 - settings.refreshInterval
    guard bound > 0 else { return }
    let submittedDay = FieldLogTime(utcMicroseconds: submitted, offsetSeconds: time.offsetSeconds).localDay
    device.refreshLateness.append((bound, false, submitted, submittedDay))
  }

  /// The phone's log ends with requests still pending: a Background App Refresh request not yet run and
  /// each widget's policy date not yet reloaded are lower bounds at the log's end (leaving them out would
  /// drop the longest latenesses: the one pending when a log ends is more often a long one).
  static func logEnded(settings: Settings, _ device: inout FieldDevice) {
    let end = FieldLogTime(utcMicroseconds: device.lastTime, offsetSeconds: device.offsetSeconds)
    appRan(at: device.lastTime, &device)
    refreshReplaced(at: end, openAppended: false, settings: settings, &device)
    for key in device.widgets.keys.sorted() {
      let widget = device.widgets[key]!
      guard let lastNext = widget.policyDate, lastNext < device.lastTime else { continue }
      // No reload came by the end, whatever the app saw: the lateness passes the end.
      let bound = Double(device.lastTime - lastNext) / 1e6
      let nextSecond = FieldLogTime(utcMicroseconds: lastNext, offsetSeconds: device.offsetSeconds).localSecondOfDay
      if bound > 0 { device.lateness.append((key, bound, lastNext, nextSecond, false)) }
    }
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
    if let lastNext = widget.policyDate {
      let seconds = Double(t - lastNext) / 1e6
      let nextSecond = FieldLogTime(utcMicroseconds: lastNext, offsetSeconds: time.offsetSeconds).localSecondOfDay
      if let trigger = widget.firstTrigger {
        // Something else may have caused this reload: the policy's own came no earlier than the trigger.
        let bound = Double(trigger - lastNext) / 1e6
        if bound > 0 { device.lateness.append((key, bound, lastNext, nextSecond, false)) }
      } else if seconds >= 0 {
        device.lateness.append((key, seconds, lastNext, nextSecond, true))
      }
    }
    widget.perDay[time.localDay, default: 0] += 1
    // A reload the app called for from the foreground runs within seconds, exempt; a call WidgetKit
    // ignored (just after a widget-tap open) leaves no timeline, and a later one is not its.
    let exempt = widget.foregroundCall.map { t - $0 <= FieldObservations.callWindowMicroseconds } ?? false
    if !exempt {
      widget.budgetedTimes.append(t)
      if device.lastTrigger.map({ t - $0 > FieldObservations.callWindowMicroseconds }) ?? true {
        widget.untriggeredTimes.append(t)
      }
    }
    widget.foregroundCall = nil
    if let next { widget.requestedIntervals.append(Double(next.utcMicroseconds - t) / 1e6) }
    widget.lastTime = t
    widget.lastNext = next?.utcMicroseconds
    widget.lastPolicy = policy
    widget.lastEntries = entries
    widget.lastLowPower = device.lowPower
    widget.firstTrigger = nil
    device.widgets[key] = widget
  }

  /// The phones' observations, summed up one phone at a time, each ended and added to the sample; each chunk
  /// of phones is let go once added, so the state and the sample are not held whole at once. The observations
  /// are empty afterwards.
  public mutating func finish() -> FieldSample {
    var builder = FieldSample.Builder(settings: settings, serverEnd: lastSend, replayCapacity: replayCapacity)
    let ids = devices.ids
    devices.forEachReleasing { place, phone in
      FieldObservations.logEnded(settings: settings, &phone)
      // Sends inside the app's log only: before or after it the phone's side is not known. The log's end
      // for them is its last record other than a push's arrival (whether a send counts may not depend on
      // whether it arrived).
      phone.sends = (sends[ids[place]] ?? []).filter {
        $0.time >= phone.firstTime && $0.time <= phone.pushCoverageEnd
      }
      .sorted { $0.time < $1.time }
      builder.add(phone, share: FieldLogSet.share(ids[place]))
    }
    (devices, sends, lastSend) = (FieldDeviceTable(), [:], .min)
    return FieldSample(builder)
  }

  /// Sends the server's log holds for phones with no app log, or outside a phone's app log (not used).
  public var sendsOutsideAppLogs: Int {
    sends.reduce(0) { total, phone in
      guard let place = devices.place(of: phone.key) else { return total + phone.value.count }
      let device = devices[place]
      return total + phone.value.filter { $0.time < device.firstTime || $0.time > device.pushCoverageEnd }.count
    }
  }
}
