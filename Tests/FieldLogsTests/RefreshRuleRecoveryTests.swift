import FieldLogs
import ScenarioFiles
import SimulationEngine
import TestSupport
import Testing
import WidgetModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Background App Refresh in the model's documented shape, in logs made here from the docs (not by
/// widgetsim): a request's lateness past `interval` is exponential with mean `delay × max(1, reference_opens
/// / opens a day over the 168 hours before the request)`. `calibrate` recovers `reference_opens` 8 and
/// `delay` 30 min, its intervals covering them.
@Suite struct RefreshRuleRecoveryTests {
  static let (reference, delaySeconds, intervalSeconds) = (8.0, 1_800.0, 3_600.0)

  /// 80 phones over 21 days, each with its own rate of opens (lognormal, median 4.5 a day), opened at
  /// uniform times between 08:00 and 22:00 UTC for a minute or two; each leaving of the foreground, and
  /// each run, submits a request that runs unless the next open comes first.
  static func sample(seed: UInt64) throws -> FieldSample {
    let base = try ScenarioLoader.load(path: Repository.path("Scenarios/field/calibrate.yaml")).configuration
    var observations = FieldObservations(base: base)
    var random = SplitMix64(state: seed)
    func uniform() -> Double { Double(random.next() >> 11) / Double(1 << 53) + 0x1p-54 }
    func exponential(mean: Double) -> Double { -mean * log(uniform()) }
    func normal() -> Double { (-2 * log(uniform())).squareRoot() * cos(2 * Double.pi * uniform()) }
    let start = try #require(FieldLogTime(text: "2026-01-05T00:00:00Z")).utcMicroseconds
    let (days, week) = (21.0, 7.0 * 86_400)
    for phone in 0..<80 {
      let rate = exp(1.5 + 0.6 * normal())
      var opens: [Double] = []
      for day in 0..<Int(days) {
        var count = 0
        var clock = exponential(mean: 1)
        while clock < rate {
          count += 1
          clock += exponential(mean: 1)
        }
        for _ in 0..<count { opens.append(Double(day) * 86_400 + 28_800 + uniform() * 50_400) }
      }
      opens.sort()
      var events: [(Double, FieldLogEvent)] = []
      for (index, open) in opens.enumerated() {
        let leave = open + 60 + uniform() * 120
        events += [(open, .appForeground(fromWidget: nil)), (leave, .appBackground)]
        let next = index + 1 < opens.count ? opens[index + 1] : days * 86_400
        var submitted = leave
        while true {
          let usage =
            submitted >= week ? Double(opens.filter { $0 > submitted - week && $0 <= submitted }.count) / 7 : rate
          let mean = usage > 0 ? Self.delaySeconds * Swift.max(1, Self.reference / usage) : 1e9
          let run = submitted + Self.intervalSeconds + exponential(mean: mean)
          guard run < next && run < days * 86_400 else { break }
          events.append((run, .backgroundRefresh))
          submitted = run
        }
      }
      for (seconds, event) in events.sorted(by: { $0.0 < $1.0 }) {
        let time = FieldLogTime(utcMicroseconds: start + Int64(seconds * 1e6), offsetSeconds: 0)
        #expect(observations.add(FieldLogEntry(time: time, device: "phone-\(phone)", event: event)) == nil)
      }
    }
    return observations.finish()
  }

  @Test("reference_opens and delay are recovered, their intervals covering the truth")
  func recovered() throws {
    let base = try ScenarioLoader.load(path: Repository.path("Scenarios/field/calibrate.yaml")).configuration
    var covered = (reference: 0, delay: 0)
    for seed in UInt64(1)...3 {
      let fits = FieldEstimators.fit(try Self.sample(seed: seed), base: base)
      let reference = try #require(fits.first { $0.key == "app.background_refresh.reference_opens" })
      let delay = try #require(fits.first { $0.key == "app.background_refresh.delay" })
      let (r, rLow, rHigh) = (
        try #require(reference.estimate), try #require(reference.low), try #require(reference.high)
      )
      let (d, dLow, dHigh) = (try #require(delay.estimate), try #require(delay.low), try #require(delay.high))
      #expect(abs(r - Self.reference) / Self.reference < 0.06, "seed \(seed): reference_opens \(r)")
      #expect(abs(d - Self.delaySeconds) / Self.delaySeconds < 0.06, "seed \(seed): delay \(d)")
      if rLow <= Self.reference && Self.reference <= rHigh { covered.reference += 1 }
      if dLow <= Self.delaySeconds && Self.delaySeconds <= dHigh { covered.delay += 1 }
    }
    // At 95% each, 2 or 3 of 3 with probability 0.993.
    #expect(covered.reference >= 2 && covered.delay >= 2, "\(covered)")
  }
}
