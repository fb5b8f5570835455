import Fleets
import TestSupport
import Testing

@testable import Results
@testable import WidgetModel

/// The trigger table is the one list of reload causes: the model, the reports and the documentation agree.
@Suite("Trigger table")
struct TriggerTableTests {
  @Test(
    "every cause has one row, a unique report name; policy and push are budgeted, the app's background reloads by key"
  )
  func rows() {
    let names = ReloadCause.allCases.map(\.name)
    #expect(Set(names).count == names.count)
    #expect(ReloadCause.allCases.allSatisfy { $0.trigger.cause == $0 && !$0.trigger.reloads.isEmpty })
    #expect(ReloadCause.allCases.filter { $0.trigger.budget == .budgeted } == [.policy, .push])
    #expect(
      ReloadCause.allCases.filter { $0.trigger.budget == .appBackground } == [
        .appReload, .backgroundRefresh, .silentPush,
      ])
  }

  @Test(
    "the documentation lists the trigger table exactly as the code has it",
    arguments: ["docs/reports.md", "Scenarios/README.md"])
  func documentation(_ file: String) throws {
    let readme = try TestFiles.read(Repository.path(file))
    #expect(
      readme.contains(ReloadCause.markdownTable),
      "\(file)'s trigger table differs from ReloadCause.trigger; paste this:\n\(ReloadCause.markdownTable)")
  }
}

/// ``ReplicationResult`` lists its accumulators once; a stored property missing from that list would be
/// neither merged across threads nor reset between runs.
@Suite("Replication result")
struct ReplicationResultTests {
  @Test("every stored property is an accumulator in the list, or one of the few that are not")
  func fieldsListed() {
    let result = ReplicationResult(replication: 0, days: 1, instanceCount: 1)
    let notAccumulated: Set = [
      "replication", "days", "instanceCount", "trace", "appTrace", "pushTargetCount", "activities",
      "keepsActivityRecords", "perSecond", "openedDays",
    ]
    let stored = Mirror(reflecting: result).children.compactMap(\.label).filter { !notAccumulated.contains($0) }
    let listed = ReplicationResult.fields.map(\.keyPath)
    #expect(Set(listed).count == listed.count, "an accumulator is listed twice")
    #expect(stored.count == listed.count, "stored accumulators: \(stored)")
  }

  @Test("merging two devices' results equals running them into one; reset empties every accumulator")
  func mergeAndReset() {
    var configuration = ModelFixtures.quiet(
      [ModelFixtures.widget("a", policy: .after(.minutes(30)), changesPerHour: 1, onChange: .reloadKind)], days: 2)
    configuration.fleet.devices = 2
    configuration.fleet.spread = .pinned  // each device as the configuration says, as DeviceSimulation.run takes it
    let together = FleetRunner.run(configuration, replication: 0, jobs: 1).result
    let first = DeviceSimulation.run(configuration: configuration, replication: 0, device: 0)
    var merged = first
    merged.merge(DeviceSimulation.run(configuration: configuration, replication: 0, device: 1))
    #expect(merged.fingerprint == together.fingerprint)
    #expect(merged.reloads == together.reloads && merged.energy.microjoules == together.energy.microjoules)
    merged.reset(replication: 3)
    // A reset result is emptied day by day as a device reaches each day; whole, it is empty.
    #expect(merged.openedDays == 0)
    merged.openAll()
    let empty = ReplicationResult(replication: 3, days: 2, instanceCount: 1)
    #expect(merged.reloads == empty.reloads && merged.devices == 0 && merged.eventsHandled == 0)
    #expect(merged.energy.microjoules == empty.energy.microjoules && merged.fingerprint == empty.fingerprint)
  }
}
