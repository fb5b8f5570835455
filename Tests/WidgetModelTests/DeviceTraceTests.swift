import SimulationEngine
import Testing

@testable import Results
@testable import WidgetModel

/// `run --trace`: the traced device is the run's device, draw for draw, and its records tell the same story
/// as the run's counters.
@Suite("Device trace")
struct DeviceTraceTests {
  /// Pushes on every change, fetching builds on LTE with a battery that runs into Low Power Mode.
  static func configuration(warmupDays: Int = 0) throws -> ScenarioConfiguration {
    var configuration = PushTests.pushing(changesPerHour: 4, delay: try .constant(30))
    configuration.widgets[0].build.fetchProbability = 1
    configuration.device.network = NetworkSelection(defaultNetwork: .lte)
    configuration.device.charging = ChargingConfiguration()
    configuration.device.battery.capacityJoules = 20_000
    configuration.user.appOpensPerDay = 6
    configuration.days = 3
    configuration.warmupDays = warmupDays
    return configuration
  }

  @Test("the trace's reloads are the run's, in order; its requests and pushes add up to the run's counts")
  func sameAsTheRun() throws {
    let configuration = try DeviceTraceTests.configuration()
    let records = ScenarioRunner.trace(configuration, device: 0)
    let run = ScenarioRunner.runReplication(configuration, replication: 0, trace: true)
    let reloads = records.compactMap { record -> ReloadRecord? in
      guard case .reload(let instance, let cause, let outcome) = record.event else { return nil }
      return ReloadRecord(
        time: record.time, requestTime: record.time, instance: instance, cause: cause, outcome: outcome)
    }
    let expected = (run.trace ?? []).map {
      ReloadRecord(time: $0.time, requestTime: $0.time, instance: $0.instance, cause: $0.cause, outcome: $0.outcome)
    }
    #expect(reloads.count > 50)
    #expect(reloads == expected.sorted { $0.time < $1.time })
    var requests = 0
    var sent = 0
    var delivered = 0
    for record in records {
      switch record.event {
      case .reloadRequest: requests += 1
      case .push(.widget, .sent): sent += 1
      case .push(.widget, .delivered): delivered += 1
      default: break
      }
    }
    #expect(requests == (0..<2).map { run.total(instance: $0) }.reduce(0, +))
    #expect(sent == run.pushTotal(target: 0, counter: .sent) && sent > 0)
    #expect(delivered == run.pushTotal(target: 0, counter: .delivered) && delivered > 0)
  }

  @Test("records in time order within the run; the battery at the start and every hour; radio phases never overlap")
  func shape() throws {
    for warmup in [0, 1] {
      let configuration = try DeviceTraceTests.configuration(warmupDays: warmup)
      let records = ScenarioRunner.trace(configuration, device: 0)
      let end = SimTime.zero + .days(Int64(configuration.days))
      #expect(zip(records, records.dropFirst()).allSatisfy { $0.time <= $1.time })
      #expect(records.allSatisfy { $0.time >= .zero && $0.time + ($0.duration ?? .zero) <= end })
      let battery = records.filter {
        if case .battery = $0.event { return true }
        return false
      }
      #expect(battery.count == configuration.days * 24 + 1, "warm-up \(warmup)")
      let radio = records.filter {
        if case .radio(.lte, _) = $0.event { return true }
        return false
      }
      #expect(radio.count > 50)
      for (before, after) in zip(radio, radio.dropFirst()) {
        #expect(before.time + (before.duration ?? .zero) <= after.time, "overlapping radio phases at \(after.time)")
      }
      #expect(records.contains { $0.event == .lowPowerMode }, "the small battery reaches Low Power Mode")
      #expect(records.contains { $0.event == .appForeground })
      #expect(records.contains { $0.event == .charging })
    }
  }

  /// The age of the content each instance shows, from its `content` records: the latest one before `time`
  /// (the placeholder: nil; current: 0; behind: its age plus the time since).
  static func contentAge(_ records: [TraceRecord], instance: InstanceID, at time: SimTime) -> SimDuration?? {
    var shown: SimDuration?? = .none
    for record in records where record.time <= time {
      guard case .content(instance, let content) = record.event else { continue }
      switch content {
      case .placeholder: shown = .some(nil)
      case .current: shown = .some(.zero)
      case .behind(let age): shown = .some(age + (time - record.time))
      }
    }
    return shown
  }

  @Test(
    "every view shows the content age the content records say: a fetching widget and a store-reading one, with and without a warm-up"
  )
  func contentRecordsMatchViews() throws {
    let reading = DormancyTests.silentPushDevice(opensPerDay: 4, dormantAfter: nil)
    for (configuration, warmup) in [
      (try DeviceTraceTests.configuration(), 0), (try DeviceTraceTests.configuration(warmupDays: 1), 1),
      (reading, 0),
    ] {
      var configuration = configuration
      configuration.warmupDays = warmup
      let records = ScenarioRunner.trace(configuration, device: 0)
      var views = 0
      var stale = 0
      var drops = 0
      for record in records {
        switch record.event {
        case .view(let instance, _, let staleness):
          views += 1
          if let staleness, staleness > .zero { stale += 1 }
          let shown = DeviceTraceTests.contentAge(records, instance: instance, at: record.time)
          #expect(
            shown == .some(staleness), "view at \(record.time): \(String(describing: shown)) vs \(staleness as Any)")
        case .content(let instance, let content):
          // A drop: what the instance showed just before was older than what it shows now.
          let before = DeviceTraceTests.contentAge(
            records.filter { $0.time < record.time }, instance: instance, at: record.time)
          if case .some(.some(let old)) = before, old > .zero {
            switch content {
            case .current: drops += 1
            case .behind(let age) where age < old: drops += 1
            default: break
            }
          }
        default: break
        }
        if views > 400 { break }
      }
      // Enough of each to mean something: hundreds of views, some stale, content that went back to current.
      #expect(views > 100 && stale > 10 && drops > 10, "views \(views), stale \(stale), drops \(drops)")
    }
  }
}
