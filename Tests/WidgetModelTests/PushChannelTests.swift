import SimulationEngine
import Testing

@testable import WidgetModel

/// The push channels driven directly, input by input, without a simulation: what each send and delivery
/// asks of the device.
@Suite("Push channels")
struct PushChannelTests {
  static func stream() -> RandomStream { RandomStream(seed: StreamSeed(scenarioSeed: 7, stream: 1)) }
  static let minute = SimDuration.minutes(1)

  @Test("a WidgetKit push: delivered after its delay; a newer send supersedes a pending one")
  func widgetSendAndSupersede() throws {
    let settings = WidgetPushConfiguration(delay: try .constant(60))
    var channel = WidgetPushChannel(settings: settings, delayStream: Self.stream())
    let t0 = SimTime.zero + .hours(10)
    #expect(
      channel.send(at: t0, asleep: false, nextWake: t0) == .init(supersededHour: nil, deliverAt: t0 + Self.minute))
    let t1 = t0 + .seconds(30)
    #expect(channel.send(at: t1, asleep: false, nextWake: t1) == .init(supersededHour: 10, deliverAt: t1 + Self.minute))
    #expect(
      channel.deliver(at: t1 + Self.minute, poweredOff: false, asleep: false, nextWake: t1) == .delivered(sendHour: 10))
    #expect(channel.deliver(at: t1 + Self.minute, poweredOff: false, asleep: false, nextWake: t1) == .none)
  }

  @Test("a WidgetKit push sent while the user sleeps waits for them; on a switched-off phone, an hour")
  func widgetWaits() throws {
    let settings = WidgetPushConfiguration(delay: try .constant(0))
    var channel = WidgetPushChannel(settings: settings, delayStream: Self.stream())
    let night = SimTime.zero + .hours(2)
    let wake = SimTime.zero + .hours(7)
    #expect(channel.send(at: night, asleep: true, nextWake: wake).deliverAt == wake)
    #expect(channel.deliver(at: night, poweredOff: false, asleep: true, nextWake: wake) == .later(wake))
    #expect(channel.deliver(at: wake, poweredOff: true, asleep: false, nextWake: wake) == .later(wake + .hours(1)))
    #expect(
      channel.deliver(at: wake + .hours(1), poweredOff: false, asleep: false, nextWake: wake) == .delivered(sendHour: 2)
    )
  }

  @Test("over the per-hour budget a WidgetKit push is throttled (dropped), counted in the hour it was sent")
  func widgetThrottled() throws {
    let settings = WidgetPushConfiguration(perHour: 2, perDay: 60, delay: try .constant(0))
    var channel = WidgetPushChannel(settings: settings, delayStream: Self.stream())
    var now = SimTime.zero + .hours(12)
    var fates: [WidgetPushChannel.Delivery] = []
    for _ in 0..<3 {
      _ = channel.send(at: now, asleep: false, nextWake: now)
      fates.append(channel.deliver(at: now, poweredOff: false, asleep: false, nextWake: now))
      now = now + Self.minute
    }
    #expect(fates == [.delivered(sendHour: 12), .delivered(sendHour: 12), .throttled(sendHour: 12)])
    // An hour after the first, the budget has room again.
    let later = SimTime.zero + .hours(13)
    _ = channel.send(at: later, asleep: false, nextWake: later)
    #expect(channel.deliver(at: later, poweredOff: false, asleep: false, nextWake: later) == .delivered(sendHour: 13))
  }

  @Test("a silent push past the hourly cap is held until the cap allows it, then launches as deferred")
  func silentHeldByTheCap() throws {
    let settings = LaunchingPushConfiguration(perHour: 1, perDay: 48, delay: try .constant(0))
    var channel = LaunchingPushChannel(.silent, settings: settings, delayStream: Self.stream())
    let t0 = SimTime.zero + .hours(9)
    _ = channel.send(at: t0)
    #expect(
      channel.deliver(at: t0, poweredOff: false, forceQuit: false, dormant: false) == .reached(.granted, sendHour: 9))
    let t1 = t0 + .minutes(10)
    _ = channel.send(at: t1)
    #expect(channel.deliver(at: t1, poweredOff: false, forceQuit: false, dormant: false) == .later(t0 + .hours(1)))
    #expect(
      channel.deliver(at: t0 + .hours(1), poweredOff: false, forceQuit: false, dormant: false)
        == .reached(.deferred, sendHour: 9))
  }

  @Test("a newer silent push drops a held one; a force-quit app is refused; the run's end drops what is held")
  func silentDroppedRefusedAndFinished() throws {
    let settings = LaunchingPushConfiguration(delay: try .constant(300))
    var channel = LaunchingPushChannel(.silent, settings: settings, delayStream: Self.stream())
    let t0 = SimTime.zero + .hours(8)
    #expect(channel.send(at: t0) == .init(droppedHour: nil, deliverAt: t0 + .minutes(5)))
    #expect(channel.send(at: t0 + .hours(1)) == .init(droppedHour: 8, deliverAt: t0 + .hours(1) + .minutes(5)))
    #expect(
      channel.deliver(at: t0 + .hours(1) + .minutes(5), poweredOff: false, forceQuit: true, dormant: false)
        == .reached(.deniedForceQuit, sendHour: 9))
    _ = channel.send(at: t0 + .hours(2))
    #expect(channel.finish() == 10)
    #expect(channel.finish() == nil)
  }
}
