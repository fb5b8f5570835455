import SimulationEngine

@testable import Results
@testable import WidgetModel

/// Scenarios built in code for the rule tests: every trigger off unless a test turns it on, and no delay
/// on `.after`, so the closed forms are exact.
enum ModelFixtures {
  static func widget(
    _ id: String, kind: String? = nil, policy: ReloadPolicy, instances: Int = 1,
    changesPerHour: Double = 0, onChange: DataChangeAction = .none, placement: WidgetPlacement = .home
  ) -> WidgetConfiguration {
    WidgetConfiguration(
      id: id, kind: kind ?? "Kind_\(id)", family: placement == .lockScreen ? .accessoryCircular : .systemMedium,
      placement: placement, instances: instances, timeline: TimelineConfiguration(policy: policy),
      data: DataConfiguration(changes: HourlyRate(perHour: changesPerHour), onChange: onChange))
  }

  static func quiet(
    _ widgets: [WidgetConfiguration], days: Int = 7, replications: Int = 1, seed: UInt64 = 2_026,
    budget: BudgetConfiguration = BudgetConfiguration()
  ) -> ScenarioConfiguration {
    var user = UserConfiguration()
    user.appOpensPerDay = 0
    user.audioSessionsPerDay = 0
    user.widgetOpenShare = 0
    let system = SystemConfiguration(
      afterDelay: try! .constant(0), environmentChangesPerDay: 0, rebootsPerDay: 0,
      appReloadDelay: try! .constant(0))  // literal, valid
    var configuration = ScenarioConfiguration(
      name: "test", days: days, seed: seed, replications: replications, user: user, budget: budget, system: system,
      widgets: widgets)
    // No app opens here: an app that never goes dormant keeps the wake channels' own rules apart.
    configuration.app.dormantAfter = nil
    return configuration
  }

  /// ``quiet(_:days:replications:seed:budget:)`` with the idealised app that learns of every change at once
  /// (`app.always_running`): its reloads are `app_reload`, at the moment of each change.
  static func alwaysRunning(
    _ widgets: [WidgetConfiguration], days: Int = 7, budget: BudgetConfiguration = BudgetConfiguration()
  ) -> ScenarioConfiguration {
    var configuration = quiet(widgets, days: days, budget: budget)
    configuration.app.alwaysRunning = true
    return configuration
  }

  /// Budgeted reloads (every outcome that spent budget) in the trace of one instance.
  static func budgetedReloadTimes(_ result: ReplicationResult, instance: Int) -> [Int64] {
    (result.trace ?? []).filter {
      $0.instance.index == instance && [.grantedBudget, .withheldGranted, .deferredGranted].contains($0.outcome)
    }.map(\.time.microseconds)
  }

  /// The most reloads that fall in any window [t, t + length) starting at one of them.
  static func busiestWindow(_ times: [Int64], length: SimDuration) -> Int {
    var best = 0
    var start = 0
    for end in times.indices {
      while times[end] - times[start] >= length.microseconds { start += 1 }
      best = max(best, end - start + 1)
    }
    return best
  }
}
