import Dispatch
import Reports
import SimulationEngine
import Statistics
import WidgetModel

/// How well a scenario explains field logs: the logs' distributions against the same ones read from the
/// field log of a simulation of the scenario (with the logs' phones and days), each by the two-sample
/// Kolmogorov-Smirnov test and a table of quantiles.
public enum GoodnessOfFit {
  /// One distribution the logs and the simulation both show, and the largest KS distance that is not yet a
  /// failure (its floor: with a million lines any p-value rejects a trivial difference).
  public struct Measure: Sendable {
    public let name: String
    public let unit: String
    public let floor: Double
    /// Whether the values come a phone's days at a time (correlated within a phone): the p-value then counts
    /// phones, not values.
    public var perPhoneDays = false
    /// What the values' independent units are where fleet events the phones share send the pushes (the
    /// pushes, their times and the reloads they bring are alike across phones): days, or the events' occurrences;
    /// nil: the events do not drive them.
    public var sharedUnit: SharedEvents.Unit?
    let values: @Sendable (FieldSample) -> [Double]
  }

  /// The distributions compared, with their default floors (docs/field-logs.md).
  public static let measures: [Measure] = [
    Measure(name: "reloads_per_instance_day", unit: "reloads", floor: 0.15, perPhoneDays: true, sharedUnit: .day) {
      $0.reloadsPerInstanceDay
    },
    Measure(name: "reload_gap", unit: "s", floor: 0.10) { $0.reloadGaps },
    Measure(name: "policy_lateness", unit: "s", floor: 0.10) { $0.lateness.filter(\.exact).map(\.seconds) },
    Measure(name: "app_opens_per_day", unit: "opens", floor: 0.15, perPhoneDays: true) { $0.opensPerDeviceDay },
    Measure(name: "app_open_time_of_day", unit: "s", floor: 0.10) { $0.openSecondsOfDay },
    Measure(name: "session_length", unit: "s", floor: 0.10) { $0.sessions },
    Measure(name: "background_refreshes_per_day", unit: "runs", floor: 0.15, perPhoneDays: true) {
      $0.refreshesPerDeviceDay
    },
    Measure(name: "silent_pushes_per_day", unit: "pushes", floor: 0.15, perPhoneDays: true, sharedUnit: .day) {
      $0.silentPushesPerDeviceDay
    },
    Measure(name: "silent_push_time_of_day", unit: "s", floor: 0.10, sharedUnit: .occurrence) {
      $0.silentPushSecondsOfDay
    },
    // With a server log: the delay from send to delivery of each delivered push.
    Measure(name: "silent_push_delay", unit: "s", floor: 0.10) { $0.silentPushDeliveries.allDelays },
    Measure(name: "widget_push_delay", unit: "s", floor: 0.10) { $0.widgetPushDeliveries.allDelays },
  ]

  /// The quantiles `fit_report.csv` tabulates.
  public static let quantiles = [0.05, 0.25, 0.5, 0.75, 0.95]

  /// A p-value below this, with a distance above the floor, fails the check.
  public static let significance = 0.05

  /// One distribution compared; `test` nil when either side has fewer than ``minimumCount`` values.
  public struct Check: Sendable {
    public let measure: Measure
    /// Both sides' values, each sorted ascending (sorted once: a million phones' values are costly to sort).
    public let observed: [Double]
    public let simulated: [Double]
    public let test: TwoSampleKS?
    public let floor: Double

    /// Whether the difference is both real (p below the significance) and large (distance above the floor).
    public var failed: Bool {
      guard let test else { return false }
      return test.p < GoodnessOfFit.significance && test.distance > floor
    }
  }

  public static let minimumCount = 5

  /// The phones the check simulates unless told otherwise (`--check-devices`): as many as the logs have, up
  /// to this. The simulated side is a sample of the model, not of the logged phones, so a few thousand phones
  /// give every distribution thousands of values, while its memory and time no longer grow with the fleet's.
  public static let defaultCheckDevices = 2_000

  /// The phones the check simulates for `logged` phones in the logs, at most `limit`.
  public static func simulatedPhones(logged: Int, at limit: Int) -> Int {
    Swift.max(1, Swift.min(logged, limit))
  }

  /// The checks of `observed` against `simulated`; `floors` replace the defaults by name. `sharedEvents`:
  /// the simulation drew push-sending fleet events of its own that every phone shares (not the logged sends
  /// replayed), so what follows them is alike across phones on each side, and its p-value counts days or
  /// occurrences (``Measure/sharedUnit``), not phones.
  public static func compare(
    _ observed: FieldSample, _ simulated: FieldSample, floors: [String: Double] = [:],
    sharedEvents: SharedEvents? = nil
  ) -> [Check] {
    measures.map { measure in
      let a = SampleQuantiles(measure.values(observed)).sorted
      let b = SampleQuantiles(measure.values(simulated)).sorted
      let independent: (Int, Int)?
      switch (sharedEvents, measure.sharedUnit) {
      case (_?, .day?): independent = (observed.days, simulated.days)
      case (let shared?, .occurrence?):
        independent = (shared.occurrences * observed.days / Swift.max(1, simulated.days), shared.occurrences)
      default: independent = measure.perPhoneDays ? (observed.devices, simulated.devices) : nil
      }
      let test =
        a.count >= minimumCount && b.count >= minimumCount ? TwoSampleKS(a, b, independent: independent) : nil
      return Check(
        measure: measure, observed: a, simulated: b, test: test, floor: floors[measure.name] ?? measure.floor)
    }
  }

  /// The check that fits worst: the failed one with the largest distance over its floor, else the largest
  /// distance over its floor among those tested.
  public static func worst(_ checks: [Check]) -> Check? {
    let tested = checks.filter { $0.test != nil }
    let failed = tested.filter(\.failed)
    return (failed.isEmpty ? tested : failed).max { $0.test!.distance / $0.floor < $1.test!.distance / $1.floor }
  }

  /// `fit_report.csv`: per distribution its sizes, the KS distance, p-value, floor and verdict, and one row
  /// per quantile with the observed and simulated values.
  public static func csv(_ checks: [Check]) -> String {
    var text =
      "distribution,unit,n_observed,n_simulated,ks_distance,ks_p_value,floor,verdict,quantile,observed,simulated\n"
    for check in checks {
      let head =
        "\(check.measure.name),\(check.measure.unit),\(check.observed.count),\(check.simulated.count),"
        + (check.test.map { "\(CSVFormat.number($0.distance, decimals: 4)),\(CSVFormat.number($0.p, decimals: 6))" }
          ?? ",")
        + ",\(CSVFormat.number(check.floor, decimals: 3)),"
        + (check.test == nil ? "too_few" : check.failed ? "fail" : "pass")
      let observed = SampleQuantiles(sorted: check.observed)
      let simulated = SampleQuantiles(sorted: check.simulated)
      for quantile in quantiles {
        text +=
          "\(head),\(CSVFormat.number(quantile, decimals: 2)),"
          + "\(observed.count > 0 ? CSVFormat.number(observed.quantile(quantile), decimals: 3) : ""),"
          + "\(simulated.count > 0 ? CSVFormat.number(simulated.quantile(quantile), decimals: 3) : "")\n"
      }
    }
    return text
  }

  /// The check's simulation of `configuration` against `observed`: with a server log (`replay`) that holds
  /// sends to the logged phones, the logged sends replayed (``replaying(_:sends:)``) and each simulated
  /// phone's log ended where its logged phone's did; else the pushes drawn. Returns the simulated sample and,
  /// when it drew push-sending fleet events its phones share, how many occurrences they had
  /// (``compare(_:_:floors:sharedEvents:)``).
  public static func simulate(
    _ configuration: ScenarioConfiguration, against observed: FieldSample, replay: Bool, jobs: Int
  ) -> (sample: FieldSample, sharedEvents: SharedEvents?) {
    let sends = observed.sendSchedules
    if replay && sends.contains(where: { !$0.micros.isEmpty }) {
      let scenario = replaying(configuration, sends: sends)
      return (
        simulate(scenario, jobs: jobs, ends: sends.map(\.end), pushCoverage: sends.map(\.pushCoverageEnd)), nil
      )
    }
    return (simulate(configuration, jobs: jobs), SharedEvents(configuration))
  }

  /// `scenario` with ``seedMix`` in its seed: the check's own draws.
  static func mixedSeed(_ scenario: ScenarioConfiguration) -> ScenarioConfiguration {
    var mixed = scenario
    mixed.seed ^= seedMix
    return mixed
  }

  /// Mixed into the scenario's seed for the check's simulation: draws of its own, so that a log the scenario
  /// itself wrote (`run --field-log`) is compared with other phones, not with itself.
  public static let seedMix: UInt64 = 0x0B5E_12ED_F1E1_D10C

  /// The field log of `configuration` (every device, replication 0, with ``seedMix`` in its seed) read as
  /// field logs are: device by device on `jobs` threads, added in device order. Device `d`'s log ends at
  /// `ends[d mod n]` (microseconds on its measured clock) when `ends` are given, and covers the sends through
  /// `pushCoverage[d mod n]` at least (its logged phone's coverage: ``SendSchedule/pushCoverageEnd``); the
  /// sample keeps the sends of `keepingSends` phones (``SendReplay``).
  public static func simulate(
    _ scenario: ScenarioConfiguration, jobs: Int, ends: [Int64]? = nil, pushCoverage: [Int64]? = nil,
    keepingSends: Int = 0
  ) -> FieldSample {
    let configuration = mixedSeed(scenario)
    var observations = FieldObservations(base: configuration)
    observations.replayCapacity = keepingSends
    let devices = configuration.fleet.devices
    let schedules = FleetSchedules(configuration)
    let batch = Swift.max(1, jobs) * 16
    for start in stride(from: 0, to: devices, by: batch) {
      let count = Swift.min(batch, devices - start)
      let entries = ThreadSlots<[FieldLogEntry]>(count: count, empty: [])
      let covered = ThreadSlots<(device: String, utc: Int64)?>(count: count, empty: nil)
      DispatchQueue.concurrentPerform(iterations: Swift.max(1, jobs)) { worker in
        for index in stride(from: worker, to: count, by: Swift.max(1, jobs)) {
          var log = ScenarioRunner.fieldLog(configuration, device: start + index, schedules: schedules)
          if let ends, !ends.isEmpty { log = log.ended(at: ends[(start + index) % ends.count]) }
          entries.set(index, FieldLogEntry.entries(of: log, configuration: configuration))
          // `.max`: no coverage given (a schedule made without one), only the log's own.
          if let pushCoverage, !pushCoverage.isEmpty,
            case let micros = pushCoverage[(start + index) % pushCoverage.count], micros < .max
          {
            let through = SimTime(microseconds: micros)
            let time = FieldLogEntry.logTime(through, of: log, configuration: configuration)
            covered.set(index, (FieldLogWriter.deviceID(log.device), time.utcMicroseconds))
          }
        }
      }
      for index in 0..<count {
        for entry in entries.take(index) { _ = observations.add(entry) }
        if let (device, utc) = covered.take(index) { observations.coverPushes(of: device, through: utc) }
      }
    }
    return observations.finish()
  }
}
