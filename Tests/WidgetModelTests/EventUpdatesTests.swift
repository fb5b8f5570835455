import Fleets
import SimulationEngine
import Testing

@testable import Results
@testable import WidgetModel

/// How an app that runs at a fleet event's second learns of its change (`app.event_updates`): a live
/// connection fetches in that second, every open phone at once; by default it waits for its next fetch.
@Suite("How an open app learns of a fleet event")
struct EventUpdatesTests {
  static let noon = 12 * 3_600

  /// `devices` phones on UTC whose app is open about two fifths of their waking time (48 opens a day of 10
  /// minutes each), a widget that neither fetches nor gets pushes, and one event at 12:00 UTC changing it.
  static func openApps(devices: Int, _ updates: EventUpdates? = nil) -> ScenarioConfiguration {
    let widget = ModelFixtures.widget("news", kind: "News", policy: .never)
    var configuration = ModelFixtures.quiet([widget], days: 1)
    configuration.user.appOpensPerDay = 48
    configuration.user.appSession = try! .constant(600)  // literal, valid
    configuration.fleet = FleetConfiguration(devices: devices, represents: Double(devices))
    configuration.events = [
      FleetEventConfiguration(id: "breaking", times: [TimeOfDay(hours: 12, minutes: 0)], dataKeys: ["News"])
    ]
    if let updates { configuration.app.eventUpdates = updates }
    return configuration
  }

  static func foregroundFetches(_ result: ReplicationResult, second: Int) -> Int {
    Int(result.serverLoad.seconds.requests(second: second, stream: .source(.appFetchForeground)))
  }

  @Test("live: every phone whose app is open fetches in the event's second, a herd the event explains")
  func liveSpike() {
    let configuration = Self.openApps(devices: 300, .live)
    let result = FleetRunner.run(configuration, replication: 0, jobs: 2).result
    // About 300 x (1 - e^(-3 opens an hour x 1/6 h)) = 118 apps are open at noon; opens alone in one second
    // are 300 x 3 / 3,600 = 0.25.
    let spike = Self.foregroundFetches(result, second: Self.noon)
    #expect(spike > 60, "\(spike)")
    let herds = result.serverLoad.seconds.herds(HerdRule(configuration, replication: 0))
    let herd = herds.first { $0.source == .appFetchForeground && $0.second == Self.noon }
    #expect(herd?.phones == UInt64(spike))
    #expect(herd?.explanation != nil)
  }

  @Test("by default (next_fetch) the event's second has no fetch spike; the apps see the change at their next fetch")
  func nextFetchByDefault() {
    #expect(AppConfiguration().eventUpdates == .nextFetch)
    let configuration = Self.openApps(devices: 300)
    let result = FleetRunner.run(configuration, replication: 0, jobs: 2).result
    // Only the phones opening the app in that very second: 0.25 expected.
    #expect(Self.foregroundFetches(result, second: Self.noon) <= 3)
    let herds = result.serverLoad.seconds.herds(HerdRule(configuration, replication: 0))
    #expect(!herds.contains { $0.source == .appFetchForeground })
    // Otherwise the two runs are the same phones doing the same: the live run's only extra fetches are the
    // event's.
    let live = FleetRunner.run(Self.openApps(devices: 300, .live), replication: 0, jobs: 2).result
    let foreground = AppWakeChannel.foreground.rawValue
    #expect(
      live.appFetches[foreground] - result.appFetches[foreground]
        == Self.foregroundFetches(live, second: Self.noon) - Self.foregroundFetches(result, second: Self.noon))
  }

  @Test("the idealised always-running app learns of the event at once whatever event_updates says")
  func alwaysRunning() {
    var configuration = Self.openApps(devices: 50)
    configuration.app.alwaysRunning = true
    let result = FleetRunner.run(configuration, replication: 0, jobs: 1).result
    // Open or not, every phone's app fetches in the event's second.
    let open = Self.foregroundFetches(result, second: Self.noon)
    let running = Int(result.serverLoad.seconds.requests(second: Self.noon, stream: .source(.appFetchAlwaysRunning)))
    #expect(open > 0 && open + running >= 50, "\(open) + \(running)")
  }
}
