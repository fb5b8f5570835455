import SimulationEngine
import Testing

@testable import Results
@testable import WidgetModel

/// The reload state machine driven directly, input by input, without a simulation.
@Suite("Reload state machine")
struct ReloadMachineTests {
  static let t0 = SimTime.zero + .minutes(10)
  static let t1 = SimTime.zero + .minutes(20)
  static let t2 = SimTime.zero + .minutes(30)

  @Test("an exempt request builds at once without budget; a success shows current content")
  func exemptBuilds() {
    var machine = ReloadMachine()
    #expect(machine.display == .placeholder)
    #expect(machine.request(.widgetAdded, at: Self.t0) == .build(spend: false, lastGrant: false, superseded: nil))
    #expect(!machine.isSettled)
    let request = ReloadRequest(cause: .widgetAdded, time: Self.t0)
    #expect(machine.buildEnded(.success(.current)) == .built(request, .grantedExempt, budgeted: false))
    #expect(machine.state == .ready(.idle))
    #expect(machine.display == .current)
  }

  @Test("a budgeted request asks for a decision; granted, it spends budget and notes the grant")
  func budgetedGrant() {
    var machine = ReloadMachine()
    #expect(machine.request(.policy, at: Self.t0) == .decide)
    #expect(machine.decide(.none) == .build(spend: true, lastGrant: true, superseded: nil))
    let request = ReloadRequest(cause: .policy, time: Self.t0)
    #expect(machine.buildEnded(.success(.current)) == .built(request, .grantedBudget, budgeted: true))
    #expect(machine.isSettled)
  }

  @Test("withheld for budget: later requests coalesce, deferral keeps it withheld, the grant says withheld")
  func withheld() {
    var machine = ReloadMachine()
    #expect(machine.request(.appReload, at: Self.t0) == .decide)
    #expect(machine.decide(.budget) == .wait(budgetEmpty: true))
    var waiting = ReloadRequest(cause: .appReload, time: Self.t0)
    waiting.waited = .withheld
    #expect(machine.state == .ready(.withheld(waiting)))
    #expect(machine.waitingRequest == waiting)
    #expect(
      machine.request(.push, at: Self.t1) == .count(ReloadRequest(cause: .push, time: Self.t1), .coalesced))
    #expect(machine.retry() == .decide)
    #expect(machine.decide(.deferred) == .wait(budgetEmpty: false))
    #expect(machine.state == .ready(.withheld(waiting)), "once withheld, always withheld")
    #expect(machine.retry() == .decide)
    #expect(machine.decide(.none) == .build(spend: true, lastGrant: false, superseded: nil))
    #expect(machine.buildEnded(.success(.current)) == .built(waiting, .withheldGranted, budgeted: true))
  }

  @Test("deferred by the minimum interval or sleep, then granted as deferred")
  func deferred() {
    var machine = ReloadMachine()
    _ = machine.request(.policy, at: Self.t0)
    #expect(machine.decide(.deferred) == .wait(budgetEmpty: false))
    #expect(machine.retry() == .decide)
    _ = machine.decide(.none)
    var request = ReloadRequest(cause: .policy, time: Self.t0)
    request.waited = .deferred
    #expect(machine.buildEnded(.success(.current)) == .built(request, .deferredGranted, budgeted: true))
  }

  @Test("an exempt reload satisfies the waiting request, which counts as coalesced")
  func exemptSupersedes() {
    var machine = ReloadMachine()
    _ = machine.request(.policy, at: Self.t0)
    _ = machine.decide(.budget)
    var waiting = ReloadRequest(cause: .policy, time: Self.t0)
    waiting.waited = .withheld
    #expect(machine.request(.catchUp, at: Self.t1) == .build(spend: false, lastGrant: false, superseded: waiting))
    _ = machine.buildEnded(.success(.current))
    #expect(machine.waitingRequest == nil)
    #expect(machine.retry() == .none, "a retry with nothing waiting does nothing")
  }

  @Test("a jetsam may leave the extension stuck: reloads end as stuck, budget still gates, an app launch frees it")
  func stuck() {
    var machine = ReloadMachine()
    _ = machine.request(.widgetAdded, at: Self.t0)
    _ = machine.buildEnded(.success(.current))
    _ = machine.request(.environmentChange, at: Self.t0)
    #expect(
      machine.buildEnded(.jetsam(stuck: true))
        == .built(ReloadRequest(cause: .environmentChange, time: Self.t0), .jetsam, budgeted: false))
    #expect(machine.state == .stuck(.idle))
    #expect(machine.display == .current, "a killed build keeps the old content")
    let tap = ReloadRequest(cause: .appIntent, time: Self.t1)
    #expect(machine.request(.appIntent, at: Self.t1) == .stuck(tap, superseded: nil))
    #expect(machine.request(.policy, at: Self.t1) == .decide)
    #expect(machine.decide(.none) == .stuck(ReloadRequest(cause: .policy, time: Self.t1), superseded: nil))
    _ = machine.request(.policy, at: Self.t2)
    #expect(machine.decide(.budget) == .wait(budgetEmpty: true))
    machine.appLaunched()
    var waiting = ReloadRequest(cause: .policy, time: Self.t2)
    waiting.waited = .withheld
    #expect(machine.state == .ready(.withheld(waiting)))
    #expect(
      machine.request(.appForeground, at: Self.t2) == .build(spend: false, lastGrant: false, superseded: waiting))
  }

  @Test(
    "what a view finds: placeholder until a build, then current, behind after a data change, placeholder after a timeout"
  )
  func display() {
    var machine = ReloadMachine()
    machine.dataChanged(at: Self.t0)
    #expect(machine.display == .placeholder)
    _ = machine.request(.widgetAdded, at: Self.t0)
    _ = machine.buildEnded(.success(.current))
    machine.dataChanged(at: Self.t1)
    machine.dataChanged(at: Self.t2)
    #expect(machine.display == .behind(since: Self.t1), "staleness runs from the first unseen change")
    _ = machine.request(.reboot, at: Self.t2)
    _ = machine.buildEnded(.jetsam(stuck: false))
    #expect(machine.display == .behind(since: Self.t1))
    _ = machine.request(.reboot, at: Self.t2)
    _ = machine.buildEnded(.timeout)
    #expect(machine.display == .placeholder)
  }

  @Test("10,000 random inputs: the invariants hold after each, and every action chain settles")
  func randomWalk() {
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: 7, replication: 0, entity: 0, stream: 0x5EED))
    var machine = ReloadMachine()
    var now = SimTime.zero
    let blockers: [GrantBlocker] = [.none, .budget, .deferred]
    let results: [BuildResult] = [.success(.current), .jetsam(stuck: false), .jetsam(stuck: true), .timeout]
    var builds = 0
    var stuckCounts = 0
    for _ in 0..<10_000 {
      now = now + .seconds(Int64(stream.integer(below: 600)))
      var action: ReloadAction
      switch stream.integer(below: 5) {
      case 0: action = machine.retry()
      case 1:
        machine.appLaunched()
        action = .none
      case 2:
        machine.dataChanged(at: now)
        action = .none
      default: action = machine.request(ReloadCause.allCases[stream.integer(below: 11)], at: now)
      }
      while true {
        #expect(machine.invariantsHold)
        if case .decide = action {
          action = machine.decide(blockers[stream.integer(below: 3)])
        } else if case .build = action {
          builds += 1
          action = machine.buildEnded(results[stream.integer(below: 4)])
        } else {
          if case .stuck = action { stuckCounts += 1 }
          break
        }
      }
      #expect(machine.isSettled)
    }
    #expect(
      builds > 1_000 && stuckCounts > 100, "the walk reached builds (\(builds)) and stuck reloads (\(stuckCounts))")
  }
}
