import SimulationEngine
import Testing

@testable import WidgetModel

/// `system.silent_push.loss`: the share of silent pushes APNs never delivers.
@Suite struct SilentPushLossTests {
  static func stream() -> RandomStream {
    RandomStream(seed: StreamSeed(scenarioSeed: 7, replication: 0, entity: 0, stream: 1))
  }

  /// 20,000 pushes an hour apart, each delivered before the next: the lost share is 0.3 within four
  /// binomial standard deviations (sd 0.0032 at this size), and a lost push leaves nothing held.
  @Test func aShareOfPushesIsLost() {
    var settings = LaunchingPushConfiguration()
    settings.loss = 0.3
    var channel = LaunchingPushChannel(.silent, settings: settings, delayStream: Self.stream())
    var lost = 0
    for hour in 0..<20_000 {
      let now = SimTime.zero + .hours(Int64(hour))
      let send = channel.send(at: now)
      #expect(send.droppedHour == nil)
      guard let deliverAt = send.deliverAt else {
        lost += 1
        #expect(channel.deliver(at: now + .seconds(1), poweredOff: false, forceQuit: false, dormant: false) == .none)
        continue
      }
      let delivery = channel.deliver(at: deliverAt, poweredOff: false, forceQuit: false, dormant: false)
      #expect(delivery != .none)
    }
    let share = Double(lost) / 20_000
    #expect(abs(share - 0.3) < 4 * (0.3 * 0.7 / 20_000).squareRoot(), "lost share \(share)")
  }

  /// Without the key, a send draws its delay and nothing else: the draws (and so every scenario's
  /// trajectory) are those of before the key existed.
  @Test func noLossDrawsOnlyTheDelay() {
    let settings = LaunchingPushConfiguration()
    var channel = LaunchingPushChannel(.silent, settings: settings, delayStream: Self.stream())
    let reference = Self.stream()
    for hour in 0..<1_000 {
      let now = SimTime.zero + .hours(Int64(hour))
      let delay = SimDuration(seconds: Swift.max(0, settings.delay.sample(reference)))
      #expect(channel.send(at: now).deliverAt == now + delay)
    }
  }
}
