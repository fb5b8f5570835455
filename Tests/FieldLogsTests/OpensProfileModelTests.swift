import FieldLogs
import ScenarioFiles
import Testing
import WidgetModel

/// `user.app_opens.profile`: the model spreads the day's opens over the waking hours in proportion to the
/// profile's weights, keeping `per_day`; bad profiles are refused with their key.
@Suite struct OpensProfileModelTests {
  static func scenario(_ profile: String) throws(ScenarioError) -> ScenarioConfiguration {
    try ScenarioLoader.load(
      text: """
        name: profile
        days: 20
        fleet: {devices: 20}
        user:
          sleep: {from: "23:00", to: "07:00"}
          app_opens: {per_day: 6, profile: \(profile)}
        widgets:
          - {id: w, kind: K, timeline: {policy: after, after: 1h}}
        """, file: "profile.yaml"
    ).configuration
  }

  @Test func theRatesKeepPerDayAndFollowTheWeights() throws {
    var weights = Array(repeating: 0.0, count: 24)
    (weights[19], weights[20]) = (1, 3)
    let user = try Self.scenario("[\(weights.map { "\($0)" }.joined(separator: ", "))]").user
    let perDay = (0..<24).reduce(0.0) { $0 + user.appOpensPerAwakeHour($1) * user.sleep.awakeFraction(ofHour: $1) }
    #expect(abs(perDay - 6) < 1e-12)
    #expect(user.appOpensPerAwakeHour(20) == 3 * user.appOpensPerAwakeHour(19))
    #expect(user.appOpensPerAwakeHour(12) == 0)
  }

  /// 20 phones, 20 days: every logged open falls in 19:00-21:00, three in four of them in 20:00-21:00 (the
  /// share within three binomial standard deviations). (The count is not compared: an open while the app is
  /// still in the foreground is not logged, and opens this bunched overlap often.)
  @Test func simulatedOpensFallWhereTheWeightsAre() throws {
    var weights = Array(repeating: 0.0, count: 24)
    (weights[19], weights[20]) = (1, 3)
    let configuration = try Self.scenario("[\(weights.map { "\($0)" }.joined(separator: ", "))]")
    var hours: [Int] = []
    for device in 0..<20 {
      let log = ScenarioRunner.fieldLog(configuration, device: device)
      for entry in FieldLogEntry.entries(of: log, configuration: configuration) {
        if case .appForeground = entry.event { hours.append(Int(entry.time.localSecondOfDay / 3_600)) }
      }
    }
    #expect(!hours.isEmpty && hours.allSatisfy { $0 == 19 || $0 == 20 })
    let n = Double(hours.count)
    let late = Double(hours.filter { $0 == 20 }.count) / n
    #expect(abs(late - 0.75) < 3 * (0.75 * 0.25 / n).squareRoot(), "share in 20:00-21:00: \(late)")
  }

  @Test(arguments: [
    ("[1, 2]", "an hourly profile has 24 values"),
    ("[1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]", "no weight on a waking hour"),
    ("[-1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]", "must be between 0"),
  ])
  func badProfilesAreRefused(profile: String, message: String) {
    do {
      _ = try Self.scenario(profile)
      Issue.record("loaded \(profile)")
    } catch {
      #expect(error.message.contains(message), "\(error)")
      #expect(error.keyPath.hasPrefix("user.app_opens.profile"), "\(error)")
    }
  }
}
