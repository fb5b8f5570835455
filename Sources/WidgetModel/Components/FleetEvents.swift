import Results
import SimulationEngine

/// When each fleet-wide event happens in one replication, on its own clock: drawn once for the whole fleet
/// (every device of the replication sees the same times), follow-ups included. UTC events cover 14 h before
/// and after the run, so devices in every time zone see a full run's worth; local events cover the run.
public struct FleetEventSchedule: Sendable {
  /// Every event's times in microseconds since day 0 00:00 on its clock, ascending per event, one flat
  /// array; event `e`'s are `micros[ranges[e]]`.
  public let micros: [Int64]
  public let ranges: [Range<Int>]
  /// Per time: +1 where a burst (an occurrence with follow-ups) begins, -1 at its last follow-up, else 0.
  public let steps: [Int8]
  /// What each event is, read once for the fleet rather than once a device.
  let plan: FleetEventPlan

  public init(_ configuration: borrowing ScenarioConfiguration, replication: Int) {
    plan = FleetEventPlan(configuration)
    var times: [Int64] = []
    var steps: [Int8] = []
    var ranges: [Range<Int>] = []
    let days = Int64(configuration.simulatedDays)
    for event in configuration.events {
      let margin = event.clock == .utc ? ServerLoad.maximumOffset : .zero
      let first = SimTime.zero - margin
      let last = SimTime.zero + .days(days) + margin
      let stream = RandomStream(
        seed: StreamSeed(
          scenarioSeed: configuration.seed, replication: UInt64(replication), entity: BroadcastSchedule.fleetEntity,
          stream: StreamRole.fleetEvents.streamID(label: event.id)))
      var own: [SimTime] = []
      for day in -1...days {
        for time in event.times { own.append(SimTime.zero + .days(day) + time.sinceMidnight) }
      }
      if let rate = event.rate { own += FleetEventSchedule.poisson(rate, from: first - .day, to: last, stream) }
      own += event.instants.map(SimTime.init(microseconds:))
      own.sort()
      var all: [(time: Int64, step: Int8)] = []
      for start in own {
        var time = start
        let bursty = event.followUps > 0
        if time >= first && time < last { all.append((time.microseconds, bursty ? 1 : 0)) }
        for update in 0..<event.followUps {
          let spacing = event.followUpSpacing?.sample(stream) ?? 0
          time = time + SimDuration(seconds: Swift.max(1, spacing))
          let step: Int8 = update == event.followUps - 1 ? -1 : 0
          if time >= first && time < last { all.append((time.microseconds, step)) }
        }
      }
      all.sort { ($0.time, $0.step) < ($1.time, $1.step) }
      let start = times.count
      times += all.map(\.time)
      steps += all.map(\.step)
      ranges.append(start..<times.count)
    }
    micros = times
    self.steps = steps
    self.ranges = ranges
  }

  /// A Poisson process with a rate per clock hour, by thinning at the largest hourly rate.
  static func poisson(_ rate: HourlyRate, from start: SimTime, to end: SimTime, _ stream: RandomStream) -> [SimTime] {
    let peak = rate.perHour.max() ?? 0
    guard peak > 0 else { return [] }
    var times: [SimTime] = []
    var time = start
    while true {
      time = time + SimDuration(seconds: stream.exponential(mean: 3_600 / peak))
      guard time < end else { return times }
      // Floor division: the draw starts before day 0.
      let hours =
        time.microseconds >= 0 ? time.microseconds / 3_600_000_000 : (time.microseconds + 1) / 3_600_000_000 - 1
      if stream.uniform() * peak < rate[Int(((hours % 24) + 24) % 24)] { times.append(time) }
    }
  }

  /// Occurrences of event `event` (follow-ups included) during the run's days on its clock.
  public func occurrences(event: Int, days: Int) -> Int {
    let end = SimDuration.days(Int64(days)).microseconds
    return micros[ranges[event]].count { $0 >= 0 && $0 < end }
  }
}

/// One device's side of the fleet-wide events: which it is in the audience of, the next occurrence of each
/// on the device's clock, and when this device's pushes leave the server after an occurrence (its place in
/// the fan-out). Owns the `fleetEvent` and `fleetEventPush` events (target: the event).
struct FleetEventReception {
  let schedule: FleetEventSchedule
  let offset: SimDuration
  /// Per event: whether this device is in its audience.
  let member: [Bool]
  /// Per event: how long after an occurrence the server sends this device's pushes (its rank in the
  /// fan-out over `server.push_rate`).
  let lag: [SimDuration]
  private var next: [Int]
  /// Per event: the occurrence whose push this device has not been delivered yet (for delivery latency).
  var awaitingDelivery: [SimTime?]

  /// Per event: whether its times are UTC (shifted by the device's offset) or local.
  var utc: [Bool] { schedule.plan.utc }
  /// Per event: whether it sends the device any push.
  var sendsPushes: [Bool] { schedule.plan.sendsPushes }
  /// Per event: only devices with a running activity of this kind at the occurrence are in the audience.
  var audienceActivity: [ActivityKindID?] { schedule.plan.audienceActivity }
  /// Per event: the changed data kinds and Live Activity kinds, and which pushes they send.
  var kinds: [[KindID]] { schedule.plan.kinds }
  var activityKinds: [[ActivityKindID]] { schedule.plan.activityKinds }
  var pushKinds: [[PushKind]] { schedule.plan.pushKinds }

  init(
    _ configuration: borrowing ScenarioConfiguration, schedule: FleetEventSchedule, device: Int, offset: SimDuration,
    installed: [Bool]?, audience: (String) -> RandomStream
  ) {
    self.schedule = schedule
    self.offset = offset
    let plan = schedule.plan
    var member: [Bool] = []
    var lags: [SimDuration] = []
    member.reserveCapacity(plan.ids.count)
    lags.reserveCapacity(plan.ids.count)
    let rate = configuration.server.pushRatePerSecond
    for event in plan.ids.indices {
      if let devices = plan.audienceDevices[event], !FleetEventConfiguration.admits(device, devices) {
        member.append(false)
      } else if let widget = plan.audienceWidget[event], !(installed?[widget] ?? true) {
        member.append(false)
      } else {
        member.append(plan.share[event] >= 1 || audience(plan.ids[event]).bernoulli(plan.share[event]))
      }
      // The server walks its device list at the push rate: a device's place is the real devices before it
      // in the audience (expected, so every device's lag is known on its own) times its pushes.
      guard let rate, plan.pushes[event] > 0 else {
        lags.append(.zero)
        continue
      }
      let before = Double(device) * configuration.fleet.scale * plan.reach[event]
      lags.append(SimDuration(seconds: before * Double(plan.pushes[event]) / rate))
    }
    self.member = member
    lag = lags
    next = schedule.ranges.map(\.lowerBound)
    awaitingDelivery = Array(repeating: nil, count: plan.ids.count)
  }

  /// The occurrence at position `position` of event `event` on the device's clock.
  private func deviceTime(_ event: Int, _ position: Int) -> SimTime {
    SimTime(microseconds: schedule.micros[position] + (utc[event] ? offset.microseconds : 0))
  }

  /// Schedules every event's first occurrence after now (only for events this device is in the audience of).
  mutating func start(_ timers: inout some FleetTimers & ~Copyable) {
    for event in next.indices where member[event] { scheduleNext(event, &timers) }
  }

  /// An occurrence ran: the next is scheduled. Returns the occurrence's step (a burst begins, ends, or
  /// neither: see ``FleetEventSchedule/steps``).
  mutating func fired(_ event: Int, _ timers: inout some FleetTimers & ~Copyable) -> Int8 {
    let step = schedule.steps[next[event] - 1]
    scheduleNext(event, &timers)
    return step
  }

  private mutating func scheduleNext(_ event: Int, _ timers: inout some FleetTimers & ~Copyable) {
    let end = schedule.ranges[event].upperBound
    var position = next[event]
    while position < end && deviceTime(event, position) < timers.now { position += 1 }
    guard position < end else { return }
    next[event] = position + 1
    timers.schedule(.happened, for: UInt32(event), at: deviceTime(event, position))
  }
}

/// What each fleet event is, as every device of the fleet reads it: its clock, audience, changed kinds and
/// pushes, one array per property, indexed by event.
struct FleetEventPlan: Sendable {
  let ids: [String]
  let utc: [Bool]
  let share: [Double]
  /// The share of the fleet in its audience: `share`, times the install probability of its audience widget.
  let reach: [Double]
  let audienceWidget: [Int?]
  let audienceDevices: [[Int]?]
  let audienceActivity: [ActivityKindID?]
  let kinds: [[KindID]]
  let activityKinds: [[ActivityKindID]]
  /// Per event: the pushes it sends, in the table's order.
  let pushKinds: [[PushKind]]
  /// Pushes each occurrence sends a device in its audience (``FleetEventConfiguration/pushesPerOccurrence``).
  let pushes: [Int]
  let sendsPushes: [Bool]

  init(_ configuration: borrowing ScenarioConfiguration) {
    let events = configuration.events
    let widgets = configuration.widgets
    let dataKeys = configuration.kinds
    ids = events.map(\.id)
    utc = events.map { $0.clock == .utc }
    share = events.map(\.share)
    let installProbability = configuration.fleet.installProbability
    reach = events.map { event in event.share * (event.audienceWidget.map { installProbability[$0] ?? 1 } ?? 1) }
    audienceWidget = events.map(\.audienceWidget)
    audienceDevices = events.map(\.audienceDevices)
    audienceActivity = events.map { $0.audienceActivity.map(ActivityKindID.init) }
    kinds = events.map { event in event.dataKeys.compactMap { key in dataKeys.firstIndex(of: key).map(KindID.init) } }
    activityKinds = events.map { $0.activityKinds.map(ActivityKindID.init) }
    pushKinds = events.map { event in PushKind.allCases.filter { event.sends($0, widgets: widgets) } }
    pushes = events.map { $0.pushesPerOccurrence(widgets: widgets) }
    sendsPushes = pushes.map { $0 > 0 }
  }
}
