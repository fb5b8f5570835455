import FieldLogs
import ScenarioFiles
import TestSupport
import Testing
import WidgetModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Calibration on field logs that widgetsim's model did not make: ``IndependentFleet`` writes them from the
/// documentation alone, as JSON Lines text and a server send log; they are read by the project's readers
/// (``FieldLogSet``, as `widgetsim calibrate` reads files) and fitted on Tests/FieldLogsTests/Fixtures/
/// independent-app.yaml. Over 6 seeds, every key the logs set a truth for must hold it in its 95% interval
/// in at least 5 (the bar: the fewest holding seeds a sound interval falls short of with probability at most
/// 0.05): a sound interval holds in 5 or 6 of 6 with probability 0.967 (0.95^6 + 6 × 0.95^5 × 0.05),
/// while an interval biased by a standard error holds each seed with about 0.83 and in 5 of 6 with 0.74, one
/// biased by two with 0.48 and 0.12. `WIDGETSIM_RECOVERY_SEEDS=20` measures over more seeds; the test prints
/// the coverage table docs/field-logs.md quotes.
@Suite(.slow("6 seeds of 80 phones for three weeks, written and calibrated")) struct IndependentRecoveryTests {
  static let seeds: UInt64 = getenv("WIDGETSIM_RECOVERY_SEEDS").flatMap { UInt64(String(cString: $0)) } ?? 6

  /// `WIDGETSIM_RECOVERY_BEDTIME_SPREAD=3600` (seconds) varies each night's bedtime, to measure
  /// `after_delay` when bedtimes vary (the sleep window's and the profile's truths no longer hold then).
  static let bedtimeSpreadSeconds: Double =
    getenv("WIDGETSIM_RECOVERY_BEDTIME_SPREAD").flatMap { Double(String(cString: $0)) } ?? 0

  static let base: Result<ScenarioConfiguration, any Error> = Result {
    try ScenarioLoader.load(path: Repository.path("Tests/FieldLogsTests/Fixtures/independent-app.yaml"))
      .configuration
  }

  /// Each seed's fits, made once for every test of the suite.
  static let fits: Result<[[ParameterFit]], any Error> = Result {
    try (1...seeds).map { try fit(seed: $0) }
  }

  /// Writes the seed's logs to files, reads them as `calibrate` does and fits them.
  static func fit(seed: UInt64) throws -> [ParameterFit] {
    let logs = IndependentFleet.logs(seed: seed, bedtimeSpreadSeconds: bedtimeSpreadSeconds)
    let folder = TestFiles.temporaryDirectory()
    let (app, server) = ("\(folder)/field-log.jsonl", "\(folder)/server-log.csv")
    defer {
      for path in [app, server] { unlink(path) }
      rmdir(folder)
    }
    try TestFiles.write(logs.app, to: app)
    try TestFiles.write(logs.server, to: server)
    let base = try base.get()
    var set = FieldLogSet(base: base, holdout: 0)
    try set.read([app], serverLogs: [server], jobs: 2)
    return FieldEstimators.fit(set.samples().fit, base: base)
  }

  /// Per key: the seeds whose interval held the truth, and the median estimate.
  static func coverage() throws -> [(key: String, truth: Double, held: Int, median: Double)] {
    let fits = try fits.get()
    return try IndependentFleet.truth.map { key, truth in
      var (held, estimates) = (0, [Double]())
      for seedFits in fits {
        let fit = try #require(seedFits.first { $0.key == key }, "no fit for \(key)")
        let (low, high) = (try #require(fit.low, "\(key): \(fit.refusal ?? "")"), try #require(fit.high))
        if low <= truth && truth <= high { held += 1 }
        estimates.append(try #require(fit.estimate))
      }
      estimates.sort()
      let middle = estimates.count / 2
      let median = estimates.count % 2 == 1 ? estimates[middle] : (estimates[middle - 1] + estimates[middle]) / 2
      return (key, truth, held, median)
    }
  }

  /// The most seeds of `seeds` that a sound 95% interval holds with probability at least 0.95: the fewest
  /// holding seeds `k` whose binomial tail P(X < k) is at most 0.05 (5 of 6; 17 of 20).
  static func bar(seeds: Int) -> Int {
    var (below, k) = (0.0, 0)
    while true {
      var term = pow(0.95, Double(k)) * pow(0.05, Double(seeds - k))
      for index in 0..<k { term *= Double(seeds - index) / Double(index + 1) }
      guard below + term <= 0.05 else { return k }
      below += term
      k += 1
    }
  }

  @Test func everyIntervalHoldsTheTruth() throws {
    let table = try Self.coverage()
    print("| key | truth | seeds holding it (of \(Self.seeds)) | median estimate |\n|---|---|---|---|")
    for row in table {
      print("| `\(row.key)` | \(TableNumber.number(row.truth)) | \(row.held) | \(TableNumber.number(row.median)) |")
    }
    // The 16 waking hours' shares are read together (16 intervals a seed): one of them short of the bar by
    // chance is likely (1 - 0.967^16 = 42%), so their bar is that of all their intervals at once.
    let (hours, keys) = (
      table.filter { $0.key.hasPrefix(Self.profileKey) }, table.filter { !$0.key.hasPrefix(Self.profileKey) }
    )
    let (held, intervals) = (hours.reduce(0) { $0 + $1.held }, hours.count * Int(Self.seeds))
    print("waking hours' shares together: \(held) of \(intervals) intervals held the truth")
    #expect(held >= Self.bar(seeds: intervals), "the hours' shares held the truth in \(held) of \(intervals)")
    let bar = Self.bar(seeds: Int(Self.seeds))
    for row in keys {
      #expect(row.held >= bar, "\(row.key): held \(row.truth) in \(row.held) of \(Self.seeds) seeds")
    }
  }

  static let profileKey = "user.app_opens.profile["

  /// The lateness's family is chosen right (lognormal) and the evening bunching is named: the profile is
  /// set, because the opens contradict the even spread, in every seed.
  @Test func theShapesAreNamed() throws {
    for (seed, fits) in try Self.fits.get().enumerated() {
      let delay = try #require(fits.first { $0.key == "system.after_delay.mean" })
      #expect(delay.override?.hasPrefix("system.after_delay={dist: lognormal") == true, "seed \(seed + 1)")
      let profile = try #require(fits.first { $0.key == "user.app_opens.profile" })
      #expect(profile.override?.hasPrefix("user.app_opens.profile=[") == true, "seed \(seed + 1): \(profile.method)")
    }
  }
}
