extension FieldSample {
  /// A sample gathered one phone at a time: each phone's state is summed up into the sample's values as it
  /// comes, so a log's phones are never all held twice (as state and as an array of finished phones).
  struct Builder {
    let settings: FieldObservations.Settings
    /// The server log's last send: past it the server's log says nothing.
    let serverEnd: Int64
    private(set) var devices = 0
    private(set) var clockOffsets: [Int] = []
    private(set) var days = 0
    private(set) var opensPerDeviceDay: [Double] = []
    private(set) var refreshesPerDeviceDay: [Double] = []
    private(set) var silentPushesPerDeviceDay: [Double] = []
    private(set) var reloadsPerInstanceDay: [Double] = []
    private(set) var byHour = Array(repeating: 0, count: 24)
    private(set) var opensPerPhone: [(opens: Int, days: Double)] = []
    private(set) var sessions: [Double] = []
    private(set) var opensWithSource = 0
    private(set) var opensFromWidget = 0
    private(set) var silentPushSecondsOfDay: [Double] = []
    private(set) var reloadGaps: [Double] = []
    private(set) var waking: [Waking] = []
    private(set) var openPositions: [Double] = []
    private(set) var openSecondsOfDay: [Double] = []
    private(set) var allowances: [Allowance] = []
    private(set) var lateness: [Lateness] = []
    private(set) var refreshes: [RefreshLateness] = []
    private(set) var silentDeliveries = PushDeliveries()
    private(set) var widgetDeliveries = PushDeliveries()
    private(set) var replay: SendReplay
    private(set) var wakes: [BackgroundWake] = []

    init(settings: FieldObservations.Settings, serverEnd: Int64, replayCapacity: Int = 0) {
      self.settings = settings
      self.serverEnd = serverEnd
      replay = SendReplay(capacity: replayCapacity)
    }

    /// Adds the next phone (phones are added in the order the sample lists them); `share` places its id for
    /// the choice of phones whose sends are replayed (``SendReplay``).
    mutating func add(_ phone: FieldDevice, share: Double = 0) {
      devices += 1
      if phone.lastDay >= phone.firstDay {
        replay.offer(
          share: share, sends: phone.sends, offsetSeconds: phone.offsetSeconds, firstDay: phone.firstDay,
          lastTime: phone.lastTime, pushCoverageEnd: phone.pushCoverageEnd)
      }
      clockOffsets.append(phone.offsetSeconds)
      // Each open's local second and UTC time, read once for every figure below.
      let (seconds, openTimes) = (phone.openSecondsOfDay, phone.openTimes)
      addPerDay(phone, seconds: seconds)
      // Rates over the time each log covers, first record to last.
      if phone.lastTime > phone.firstTime {
        opensPerPhone.append((phone.opens.count, Double(phone.lastTime - phone.firstTime) / 86_400e6))
      }
      days = Swift.max(days, phone.lastDay - phone.firstDay + 1)
      sessions += phone.sessions
      wakes += phone.wakes
      opensWithSource += phone.opensWithSource
      opensFromWidget += phone.opensFromWidget
      silentPushSecondsOfDay += phone.silentPushSecondsOfDay
      for key in phone.widgets.keys.sorted() { reloadGaps += phone.widgets[key]!.gaps }
      refreshes += FieldSample.refreshLatenesses(phone, opens: openTimes)
      let observed = FieldSample.waking(seconds)
      if !phone.sends.isEmpty {
        FieldSample.matchPushes(
          phone, opens: openTimes, waking: observed, rules: settings.pushes, dormantAfter: settings.dormantAfter,
          end: Swift.min(phone.pushCoverageEnd, serverEnd), &silentDeliveries, &widgetDeliveries)
      }
      openSecondsOfDay += seconds
      guard let window = observed else { return }
      waking.append(Waking(wake: window.wake, sleep: window.sleep, opens: window.opens))
      openPositions += FieldSample.positions(seconds, from: window.observedFrom, to: window.observedTo)
      allowances += FieldSample.allowances(phone, awakeSeconds: window.observedTo - window.observedFrom)
      lateness += FieldSample.lateness(phone, opens: openTimes, awakeFrom: window.observedFrom, to: window.observedTo)
    }

    /// Per whole local day of the phone (its first and last day left out when there are days between: a log
    /// starts and stops within a day): opens, refreshes, silent pushes, and each widget's timelines; and its
    /// opens by local hour.
    private mutating func addPerDay(_ phone: FieldDevice, seconds: [Double]) {
      guard phone.lastDay >= phone.firstDay else { return }
      let whole = phone.lastDay - phone.firstDay >= 2
      let (first, span) = (phone.firstDay + (whole ? 1 : 0), phone.lastDay - phone.firstDay + (whole ? -1 : 1))
      opensPerDeviceDay += FieldSample.perDay(phone.openDays, first: first, span: span)
      refreshesPerDeviceDay += FieldSample.perDay(phone.refreshDays, first: first, span: span)
      silentPushesPerDeviceDay += FieldSample.perDay(phone.silentPushDays, first: first, span: span)
      for second in seconds { byHour[Swift.min(23, Int(second / 3_600))] += 1 }
      for key in phone.widgets.keys.sorted() {
        let widget = phone.widgets[key]!
        reloadsPerInstanceDay += (0..<span).map { Double(widget.perDay[first + $0] ?? 0) }
      }
    }
  }
}
