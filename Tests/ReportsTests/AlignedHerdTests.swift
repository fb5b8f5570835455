import Fleets
import Testing
import WidgetModel

@testable import Results

/// The clock-aligned fleet's herds: a push's reload asked for within `budget.min_interval` of the quarter
/// hour's waits until that interval has passed since it, so every phone that held one back reloads in the same
/// second. That herd is the scenario's (its alignment and its budget), and the herd rule says so.
@Suite("Herds of a clock-aligned fleet")
struct AlignedHerdTests {
  @Test(
    "reloads held back for budget.min_interval after an aligned one are a herd the scenario explains",
    arguments: [5, 7])
  func heldBackReloads(_ minutes: Int) throws {
    let configuration = try exampleScenario(
      "capacity/herd-clock",
      overrides: [
        "fleet.devices=500", "fleet.represents=500", "days=1", "budget.min_interval=\(minutes)m",
      ])
    let rule = HerdRule(configuration, replication: 0)
    let quarter = 12 * 3_600 + 45 * 60
    // Each interval after 12:45, for two quarter hours (past 13:00, which itself waits), is explained...
    for held in 1...((2 * 15 - 1) / minutes) where (held * minutes) % 15 != 0 {
      let explanation = rule.explanation(second: quarter + held * minutes * 60)
      #expect(
        explanation?.hasPrefix("budget.min_interval after widgets[scores].timeline.align clock") == true,
        "\(held * minutes) minutes after 12:45: \(explanation ?? "nothing")")
    }
    // ... but not the seconds between an aligned date's two minutes and the first held-back reload.
    #expect(rule.explanation(second: quarter + HerdRule.alignedSlack + 30) == nil)
    // The run's herds, those reloads among them, are all explained.
    let herds = FleetRunner.run(configuration, replication: 0, jobs: 2).result.perSecond.herds
    #expect(!herds.isEmpty)
    #expect(herds.allSatisfy { $0.explanation != nil }, "\(herds.filter { $0.explanation == nil })")
  }
}
