/// What the system does on an ``IndependentPhone``, by the rules docs/model.md states.
extension IndependentPhone {
  /// The widget (added on the first morning) hands WidgetKit a timeline whose `.after` policy asks for a
  /// reload an hour on. The system reloads it a lognormal lateness past that date, or at the user's next
  /// wake-up when they are asleep then (`system.defer_while_asleep`), unless the app reloads it first: every
  /// open's call does, but one right after a widget tap, which WidgetKit ignores
  /// (`system.ignore_reloads_after_widget_open`).
  mutating func widget(_ opens: [Open]) {
    var reloaded = start + Fleet.wakeSeconds + random.uniform() * 3_600
    var (next, lag) = (0, 2 * Self.callLagSeconds)
    while reloaded < end {
      let policyDate = reloaded + Fleet.policyAfterSeconds
      add(
        reloaded, "timeline",
        "\"kind\":\"Scores\",\"family\":\"systemSmall\",\"policy\":\"after\","
          + "\"next\":\"\(LocalClockText.text(policyDate, offsetSeconds: offsetSeconds))\",\"entries\":1")
      var due = policyDate + random.lognormal(median: Fleet.latenessMedianSeconds, sigma: Fleet.latenessSigma)
      if asleep(due) { due = nextWake(due) }
      while next < opens.count && opens[next].time + lag <= reloaded { next += 1 }
      let byApp = opens[next...].first { $0.time + lag < due && !$0.fromWidget }
      reloaded = byApp.map { $0.time + lag } ?? due
    }
  }

  /// Background App Refresh: the app asks when it leaves the foreground and after each run; the system runs
  /// it `interval` plus an exponential lateness of mean `delay × max(1, reference_opens / opens a day over
  /// the 168 hours before the request)` later (before the log, the person's own rate stands in). The next
  /// open replaces a request not yet run; a request due `dormant_after` past the last launch (the install at
  /// the log's start before any open) ends.
  mutating func backgroundRefresh(_ opens: [Open]) {
    let times = opens.map(\.time)
    var submitted: Double?
    for index in 0...opens.count {
      let replaced = index < opens.count ? opens[index].time : end
      while let request = submitted {
        submitted = nil
        let mean = Fleet.refreshDelaySeconds * Swift.max(1, Fleet.referenceOpens / opensADay(before: request, times))
        let run = request + Fleet.refreshIntervalSeconds + random.exponential(mean: mean)
        if run < replaced && run < lastLaunch(atOrBefore: request, times) + Fleet.dormantAfterSeconds {
          add(run, "background_refresh")
          submitted = run
        }
      }
      if index < opens.count { submitted = opens[index].end }
    }
  }

  /// Opens a day over the 168 hours before `time`, the person's own rate standing in before the log.
  func opensADay(before time: Double, _ times: [Double]) -> Double {
    let week = 7 * 86_400.0
    let counted = Double(times.filter { $0 > time - week && $0 <= time }.count)
    let before = Swift.max(0, start - (time - week)) / 86_400 * opensPerDay
    return (counted + before) / 7
  }

  /// The last open at or before `time`, or the log's start (the install).
  func lastLaunch(atOrBefore time: Double, _ times: [Double]) -> Double {
    times.last { $0 <= time } ?? start
  }

  /// The fleet's silent pushes inside the log: APNs keeps one undelivered push, a newer send replacing it;
  /// 15% are lost (and still replace the one held); the rest arrive a gamma delay later, unless the app is
  /// dormant then.
  mutating func silentPushes(_ sends: [Double], opens: [Open]) {
    let times = opens.map(\.time)
    var pending: Double?
    for send in sends where send >= start && send <= end {
      if let arrives = pending, arrives <= send { deliver(arrives, times) }
      pending = nil
      guard random.uniform() >= Fleet.pushLoss else { continue }
      let scale = Fleet.pushMeanDelaySeconds / Fleet.pushShape
      // Gamma of shape 2: the sum of two exponentials.
      pending = send + random.exponential(mean: scale) + random.exponential(mean: scale)
    }
    if let arrives = pending { deliver(arrives, times) }
  }

  mutating func deliver(_ time: Double, _ times: [Double]) {
    if time < lastLaunch(atOrBefore: time, times) + Fleet.dormantAfterSeconds { add(time, "silent_push") }
  }

  /// A battery line every hour: charging overnight, draining by day, never low, never in Low Power Mode.
  mutating func battery() {
    for hour in 0...(Fleet.days * 24) {
      let time = start + Double(hour) * 3_600
      let awakeHours = Int((localSecond(time) - Fleet.wakeSeconds) / 3_600)
      let percent = asleep(time) ? 95 : 95 - 3 * awakeHours
      add(
        time, "battery",
        "\"level\":0.\(LocalClockText.pad(percent, 2)),\"low_power\":false,\"charging\":\(asleep(time))")
    }
  }
}
