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

/// A push channel that loses pushes, in logs made here (not by widgetsim) from the format alone: the silent
/// push delay and the share never delivered are fitted together and their intervals cover the truth; with
/// nothing lost, no loss is set.
@Suite(.slow("many seeds of a lossy push channel fitted")) struct PushLossRecoveryTests {
  /// The truth: a gamma delay of shape 2 and mean 90 s, `loss` of the sends never delivered.
  static let meanDelaySeconds = 90.0

  /// 60 phones over 10 days: 6 app opens a day (a minute or two each) between 08:00 and 22:00 UTC; the
  /// server sends each phone a silent push at exponential gaps of mean 2 h; each is lost with probability
  /// `loss`, else delivered after its delay (APNs keeps the newest only, so a send replaced before its
  /// delivery never arrives either).
  static func sample(seed: UInt64, loss: Double) throws -> FieldSample {
    let base = try ScenarioLoader.load(path: Repository.path("Scenarios/field/calibrate.yaml")).configuration
    var observations = FieldObservations(base: base)
    var random = SplitMix64(state: seed)
    func uniform() -> Double { Double(random.next() >> 11) / Double(1 << 53) + 0x1p-54 }
    func exponential(mean: Double) -> Double { -mean * log(uniform()) }
    let start = try #require(FieldLogTime(text: "2026-01-05T00:00:00Z")).utcMicroseconds
    func at(_ seconds: Double) -> FieldLogTime {
      FieldLogTime(utcMicroseconds: start + Int64(seconds * 1e6), offsetSeconds: 0)
    }
    let days = 10.0
    for phone in 0..<60 {
      let device = "phone-\(phone)"
      var events: [(Double, FieldLogEvent)] = []
      for day in 0..<Int(days) {
        for _ in 0..<6 {
          let open = Double(day) * 86_400 + 28_800 + uniform() * 50_400
          events.append((open, .appForeground(fromWidget: nil)))
          events.append((open + 60 + uniform() * 120, .appBackground))
        }
      }
      var sent = 3_600.0
      var pending: (sent: Double, arrives: Double)?
      while true {
        sent += exponential(mean: 7_200)
        guard sent < days * 86_400 - 3_600 else { break }
        #expect(
          observations.add(
            FieldLogEntry(time: at(sent), device: device, event: .serverSent(push: .silent, priority: 5))) == nil)
        if let held = pending, held.arrives > sent { pending = nil }  // replaced before it arrived
        if let held = pending { events.append((held.arrives, .delivered(.silent))) }
        pending = uniform() < loss ? nil : (sent, sent + exponential(mean: 45) + exponential(mean: 45))
      }
      if let held = pending { events.append((held.arrives, .delivered(.silent))) }
      for (seconds, event) in events.sorted(by: { $0.0 < $1.0 }) {
        #expect(observations.add(FieldLogEntry(time: at(seconds), device: device, event: event)) == nil)
      }
    }
    return observations.finish()
  }

  static func fits(seed: UInt64, loss: Double) throws -> (delay: ParameterFit, loss: ParameterFit) {
    let base = try ScenarioLoader.load(path: Repository.path("Scenarios/field/calibrate.yaml")).configuration
    let fits = FieldEstimators.fit(try sample(seed: seed, loss: loss), base: base)
    return (
      try #require(fits.first { $0.key == "system.silent_push.delay.mean" }),
      try #require(fits.first { $0.key == "system.silent_push.loss" })
    )
  }

  @Test("15% lost: the delay and the loss are recovered, their intervals covering the truth")
  func lossyChannel() throws {
    var (delayCovered, lossCovered) = (0, 0)
    for seed in UInt64(1)...10 {
      let (delay, loss) = try Self.fits(seed: seed, loss: 0.15)
      let (mean, low, high) = (try #require(delay.estimate), try #require(delay.low), try #require(delay.high))
      #expect(abs(mean - Self.meanDelaySeconds) < 10, "seed \(seed): \(delay.method)")
      if low <= Self.meanDelaySeconds && Self.meanDelaySeconds <= high { delayCovered += 1 }
      let (share, shareLow, shareHigh) = (try #require(loss.estimate), try #require(loss.low), try #require(loss.high))
      #expect(abs(share - 0.15) < 0.03, "seed \(seed)")
      if shareLow <= 0.15 && 0.15 <= shareHigh { lossCovered += 1 }
      #expect(loss.override?.hasPrefix("system.silent_push.loss=") == true, "seed \(seed): \(loss.method)")
    }
    // At 95% each, 8 or more of 10 with probability 0.988 (9 or more: 0.914, too often short by chance).
    #expect(delayCovered >= 8)
    #expect(lossCovered >= 8)
  }

  @Test("nothing lost: the delay is recovered and no loss is set")
  func losslessChannel() throws {
    for seed in UInt64(11)...13 {
      let (delay, loss) = try Self.fits(seed: seed, loss: 0)
      let (mean, low, high) = (try #require(delay.estimate), try #require(delay.low), try #require(delay.high))
      #expect(abs(mean - Self.meanDelaySeconds) < 10, "seed \(seed): \(delay.method)")
      #expect(low <= Self.meanDelaySeconds && Self.meanDelaySeconds <= high, "seed \(seed)")
      #expect(loss.override == nil, "seed \(seed): \(loss.method)")
    }
  }

  @Test("a delivered share far from the model's is said; a close one is not")
  func deliveryNotes() throws {
    let lossy = try Self.sample(seed: 21, loss: 0.15)
    let notes = DeliveryTable.notes(observed: lossy, simulated: try Self.sample(seed: 22, loss: 0))
    #expect(notes.count == 1)
    #expect(notes.first?.hasPrefix("silent pushes: the logs saw 8") == true, "\(notes)")
    #expect(DeliveryTable.notes(observed: lossy, simulated: try Self.sample(seed: 23, loss: 0.15)).isEmpty)
  }
}
