import SimulationEngine
import Testing

@testable import WidgetModel

/// Every owner's events keep the numbers they always had (trajectory fingerprints hash them), and
/// `DeviceEvent` reads each number back as the event that gave it.
@Suite("Device events by owner")
struct DeviceEventTests {
  /// Every owner's events, each with its number, in the order the numbers were first given.
  static let numbered: [(EventKind, String)] = [
    (LifetimeEvent.hourTick.eventKind, "hourTick"), (UserEvent.sleep.eventKind, "sleep"),
    (UserEvent.wake.eventKind, "wake"), (ProcessEvent.fired.eventKind, "process"),
    (AppSessionEvent.close.eventKind, "appClose"), (AppSessionEvent.audioEnd.eventKind, "audioEnd"),
    (InstanceEvent.policyReload.eventKind, "policyReload"), (InstanceEvent.retry.eventKind, "retry"),
    (DisplayEvent.standbyRefresh.eventKind, "standbyRefresh"),
    (PushEvent.widgetPushDelivery.eventKind, "widgetPushDelivery"),
    (ActivityEvent.update.eventKind, "activityUpdate"), (ActivityEvent.delivery.eventKind, "activityDelivery"),
    (ActivityEvent.end.eventKind, "activityEnd"), (ActivityEvent.systemEnd.eventKind, "activitySystemEnd"),
    (ActivityEvent.dismiss.eventKind, "activityDismiss"),
    (ActivityStartEvent.scheduled.eventKind, "activityScheduledStart"),
    (AppRequestEvent.reloadRequest.eventKind, "appReloadRequest"),
    (AppRequestEvent.backgroundRefresh.eventKind, "backgroundRefresh"),
    (PushEvent.silentPushDelivery.eventKind, "silentPushDelivery"),
    (ActivityEvent.broadcastUpdate.eventKind, "broadcastUpdate"),
    (DisplayEvent.carplayRefresh.eventKind, "carplayRefresh"), (DisplayEvent.carplayEnd.eventKind, "carplayEnd"),
    (LifetimeEvent.widgetsAdded.eventKind, "widgetsAdded"), (FleetWideEvent.happened.eventKind, "fleetEvent"),
    (FleetWideEvent.push.eventKind, "fleetEventPush"), (DataEvent.scheduledChange.eventKind, "scheduledChange"),
    (DataEvent.burstUpdate.eventKind, "burstUpdate"),
  ]

  @Test("the numbers are 0, 1, 2, ... in the order they were first given, one event each")
  func numbersAreFixed() {
    for (position, (kind, name)) in DeviceEventTests.numbered.enumerated() {
      #expect(kind.rawValue == UInt32(position), "\(name) is numbered \(kind.rawValue), was \(position)")
    }
  }

  @Test("each number reads back as the event that gave it; numbers past the last are no event")
  func roundTrip() throws {
    for (kind, name) in DeviceEventTests.numbered {
      let event = try #require(DeviceEvent(kind), "\(name)")
      #expect(event.eventKind == kind, "\(name) read back as \(event)")
    }
    #expect(DeviceEvent(EventKind(rawValue: UInt32(DeviceEventTests.numbered.count))) == nil)
  }
}
