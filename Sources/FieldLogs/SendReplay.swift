import WidgetModel

/// One logged phone's sends, as the server's log holds them, on the phone's own clock: microseconds since
/// local midnight of the first day its app log covers, with the push type of each (a silent and a WidgetKit
/// push sent in one instant are two elements), where its app log ends on that clock, and how far the log
/// covers the sends (its last record other than a push's arrival: sends after it are not counted).
public struct SendSchedule: Sendable, Hashable {
  public let micros: [Int64]
  public let pushes: [PushKind]
  public let end: Int64
  public let pushCoverageEnd: Int64

  public init(micros: [Int64], pushes: [PushKind], end: Int64 = .max, pushCoverageEnd: Int64? = nil) {
    self.micros = micros
    self.pushes = pushes
    self.end = end
    self.pushCoverageEnd = pushCoverageEnd ?? end
  }
}

/// The phones whose sends the goodness of fit replays (``GoodnessOfFit/replaying(_:sends:)``): at most
/// `capacity` of them, those whose ids hash lowest (``FieldLogSet/share(_:)``), so the choice is the same
/// on every run, whatever order the logs list the phones in, and unrelated to what the phones did.
struct SendReplay {
  let capacity: Int
  private var kept: [(share: Double, schedule: SendSchedule)] = []
  /// Where the highest hash kept is, once full.
  private var largest = 0

  init(capacity: Int) { self.capacity = Swift.max(0, capacity) }

  /// Offers a phone's sends (UTC microseconds, in time order) with its clock's offset, its first local day,
  /// its log's last record and its last record other than a push's arrival (UTC microseconds).
  mutating func offer(
    share: Double, sends: [(time: Int64, push: PushKind)], offsetSeconds: Int, firstDay: Int, lastTime: Int64,
    pushCoverageEnd: Int64
  ) {
    guard capacity > 0, kept.count < capacity || share < kept[largest].share else { return }
    let origin = Int64(firstDay) * 86_400_000_000 - Int64(offsetSeconds) * 1_000_000
    let schedule = SendSchedule(
      micros: sends.map { $0.time - origin }, pushes: sends.map(\.push), end: lastTime - origin,
      // A phone that logged only push arrivals covers no send (its coverage is `.min`): its local midnight.
      pushCoverageEnd: Swift.max(pushCoverageEnd, origin) - origin)
    // Full: the phone takes the place of the highest hash kept, which is then found again.
    if kept.count == capacity { kept[largest] = (share, schedule) } else { kept.append((share, schedule)) }
    if kept.count == capacity {
      largest = kept.indices.max { kept[$0].share < kept[$1].share } ?? 0
    }
  }

  /// The kept phones' schedules, lowest hash first.
  var schedules: [SendSchedule] { kept.sorted { $0.share < $1.share }.map(\.schedule) }
}

extension GoodnessOfFit {
  /// `configuration` with the logged sends in place of the pushes it would draw: every change that sends a
  /// push (a widget's own `data.changes`, a fleet event's change of such a widget) is taken out, and
  /// simulated phone `d` is sent what logged phone `d mod n` was sent (of the `n` in `sends`), at the same
  /// local time of the same day of its log (the first measured day, after any warm-up, is the log's first),
  /// each push type as logged: a send is a change of the kinds whose `on_change` sends that push (sends of
  /// different types within a second of each other are one change). The server's fan-out adds no lag: the
  /// log's times already hold it. Phones then differ only in what the model decides (delivery, delay, loss),
  /// as the logged ones did; ``simulate(_:jobs:ends:keepingSends:)`` ends each where its logged phone's log ended.
  public static func replaying(_ configuration: ScenarioConfiguration, sends: [SendSchedule])
    -> ScenarioConfiguration
  {
    var replayed = configuration
    let pushed = Set(
      configuration.widgets.filter { !$0.data.pushes.isEmpty }.map(\.dataKey))
    for index in replayed.widgets.indices where pushed.contains(replayed.widgets[index].dataKey) {
      replayed.widgets[index].data.changes = .zero
      replayed.widgets[index].data.scheduled = nil
    }
    replayed.events = configuration.events.compactMap { event in
      var event = event
      event.dataKeys.removeAll { pushed.contains($0) }
      return event.dataKeys.isEmpty && event.activityKinds.isEmpty ? nil : event
    }
    replayed.server.pushRatePerSecond = nil
    guard !sends.isEmpty else { return replayed }
    // Phones sent the same are one audience: a fleet whose sends are shared is a few events.
    var audiences: [SendSchedule: [Int]] = [:]
    var order: [SendSchedule] = []
    for device in 0..<configuration.fleet.devices {
      let schedule = sends[device % sends.count]
      if audiences[schedule] == nil { order.append(schedule) }
      audiences[schedule, default: []].append(device)
    }
    for (group, schedule) in order.enumerated() {
      replayed.events += replayEvents(
        schedule, group: group, devices: audiences[schedule]!, widgets: configuration.widgets,
        from: Int64(configuration.warmupDays) * 86_400_000_000)
    }
    return replayed
  }

  /// One audience's sends as fleet events on the local clock, `from` microseconds after day 0 (the warm-up):
  /// one event per set of push types sent together (silent, WidgetKit, both), a send of a type the instant
  /// already holds being one more instant.
  private static func replayEvents(
    _ schedule: SendSchedule, group: Int, devices: [Int], widgets: [WidgetConfiguration], from: Int64
  ) -> [FleetEventConfiguration] {
    var instants: [Set<PushKind>: [Int64]] = [:]
    var index = 0
    while index < schedule.micros.count {
      var pushes: Set<PushKind> = []
      let time = schedule.micros[index]
      while index < schedule.micros.count && schedule.micros[index] - time < 1_000_000
        && !pushes.contains(schedule.pushes[index])
      {
        pushes.insert(schedule.pushes[index])
        index += 1
      }
      instants[pushes, default: []].append(from + time)
    }
    return instants.keys.sorted { $0.map(\.rawValue).sorted().joined() < $1.map(\.rawValue).sorted().joined() }
      .map { pushes in
        var event = FleetEventConfiguration(
          id: "replayed-sends-\(group)-" + pushes.map(\.rawValue).sorted().joined(separator: "-"), clock: .local)
        event.dataKeys = widgets.filter { !pushes.isDisjoint(with: $0.data.pushes) }.map(\.dataKey)
        event.dataKeys = Array(Set(event.dataKeys)).sorted()
        event.instants = instants[pushes]!
        event.audienceDevices = devices
        event.pushes = pushes
        return event
      }
  }
}
