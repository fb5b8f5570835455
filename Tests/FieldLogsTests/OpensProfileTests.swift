import FieldLogs
import ScenarioFiles
import SimulationEngine
import TestSupport
import Testing

/// The opens' hourly profile and the test of the model's rule (opens spread evenly over the waking hours):
/// logs whose opens are even agree with it, logs whose opens bunch in the first waking hour contradict it.
@Suite struct OpensProfileTests {
  /// 30 phones over 10 days, 5 opens a day between 07:00 and 23:00 UTC; `bunched` of them in 07:00-08:00.
  static func sample(bunched: Double) throws -> FieldSample {
    var observations = FieldObservations(refreshIntervalSeconds: 3_600, lowBattery: 0.2)
    var state: UInt64 = 42
    func uniform() -> Double {
      state = state &+ 0x9E37_79B9_7F4A_7C15
      return Double(SplitMix64.finalize(state) >> 11) / Double(1 << 53)
    }
    let dayZero = try #require(FieldLogTime(text: "2026-01-05T00:00:00Z")).utcMicroseconds
    for phone in 0..<30 {
      for day in 0..<10 {
        let seconds = (0..<5).map { _ in
          uniform() < bunched ? 25_200 + 3_600 * uniform() : 25_200 + 57_600 * uniform()
        }.sorted()
        for second in seconds {
          let time = FieldLogTime(
            utcMicroseconds: dayZero + Int64((Double(day) * 86_400 + second) * 1e6), offsetSeconds: 0)
          #expect(
            observations.add(FieldLogEntry(time: time, device: "p\(phone)", event: .appForeground(fromWidget: nil)))
              == nil)
        }
      }
    }
    return observations.finish()
  }

  static func profile(_ sample: FieldSample) throws -> [ParameterFit] {
    let base = try ScenarioLoader.load(path: Repository.path("Scenarios/field/calibrate.yaml")).configuration
    return FieldEstimators.fit(sample, base: base).filter { $0.key.hasPrefix("user.app_opens.profile") }
  }

  @Test func evenOpensAgreeWithTheRule() throws {
    let rows = try Self.profile(try Self.sample(bunched: 0))
    #expect(rows.count == 24, "even opens set no profile")
    #expect(rows.allSatisfy { $0.method.contains("the logs agree with the model's rule") }, "\(rows[0].method)")
    // 1,500 opens, one hour of the sixteen each: 1/16 inside its 95% interval.
    let seven = try #require(rows.first { $0.key == "user.app_opens.profile[07]" })
    #expect(try #require(seven.low) <= 1.0 / 16 && 1.0 / 16 <= (try #require(seven.high)))
    #expect(rows.first { $0.key == "user.app_opens.profile[03]" }?.estimate == 0)
  }

  @Test func bunchedOpensContradictIt() throws {
    let all = try Self.profile(try Self.sample(bunched: 0.5))
    let rows = all.filter { $0.key.hasPrefix("user.app_opens.profile[") }
    #expect(rows.count == 24)
    #expect(rows.allSatisfy { $0.method.contains("the logs contradict the model's even spread") }, "\(rows[0].method)")
    // The profile is set to the shares, so that the fitted scenario spreads opens as the logs do.
    let setting = try #require(all.first { $0.key == "user.app_opens.profile" })
    let weights = (setting.override ?? "").drop { $0 != "[" }.dropFirst().dropLast().split(separator: ",").map {
      Double($0.trimmingPrefix(" ")) ?? -1
    }
    #expect(weights.count == 24 && weights.prefix(7).allSatisfy { $0 == 0 }, "\(setting)")
    #expect(weights.firstIndex(of: weights.max() ?? 0) == 7, "the busiest hour weighs most: \(weights)")
    // Half the opens in 07:00-08:00 plus a sixteenth of the other half.
    let seven = try #require(rows.first { $0.key == "user.app_opens.profile[07]" })
    let share = 0.5 + 0.5 / 16
    #expect(try #require(seven.low) <= share && share <= (try #require(seven.high)))
  }
}
