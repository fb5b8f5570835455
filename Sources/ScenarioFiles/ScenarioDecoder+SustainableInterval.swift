import SimulationEngine
import WidgetModel
import Yams

/// The shortest `.after` interval a widget's reload budget sustains, and the warning for a timeline that asks
/// for less (`after: 15s`, `after: 900ms`): accepted, as WidgetKit accepts it, but its reloads then wait for
/// budget and the widget's freshness is the budget's, not the interval's.
extension ScenarioDecoder {
  /// The budget's sustainable interval: its budgeted reloads come only while the user is awake (a reload
  /// due in their sleep is deferred to the morning), at most `budget.per_day.max` in 24 hours (the most a
  /// much-viewed widget gets) and never closer than `budget.min_interval`. Nil for a debug budget (no
  /// limits) or one that grants nothing.
  static func sustainableInterval(_ budget: BudgetConfiguration, user: UserConfiguration) -> Double? {
    guard !budget.debug, budget.maxPerDay > 0 else { return nil }
    return max(budget.minInterval.seconds, user.sleep.awakeHours * 3_600 / budget.maxPerDay)
  }

  /// Warns, at its `timeline.after`, about each widget whose interval (with the system's mean
  /// `after_delay` on top, as the model adds it) is below ``sustainableInterval(_:user:)``.
  static func warnUnsustainableAfter(_ sections: Sections) {
    guard let sustainable = sustainableInterval(sections.budget, user: sections.user),
      case .sequence(let nodes) = sections.widgetsValue.node
    else { return }
    let budget = sections.budget
    let delay = sections.system.afterDelay.mean.isFinite ? max(0, sections.system.afterDelay.mean) : 0
    for (index, node) in nodes.enumerated() where index < sections.widgets.count {
      let widget = sections.widgets[index]
      guard widget.surface == .widget, case .after(let interval) = widget.timeline.policy,
        interval.seconds + delay < sustainable, let afterNode = node["timeline"]?["after"]
      else { continue }
      let path = ScenarioPath.widgetPath(node: node, index: index, base: sections.widgetsValue.path)
      YAMLValue(node: afterNode, path: "\(path).timeline.after", source: sections.widgetsValue.source).warn(
        "widget '\(widget.id)' asks for a reload every \(seconds(interval.seconds + delay)) (after "
          + "\(seconds(interval.seconds)) and the system's mean after_delay \(seconds(delay))), below what its budget sustains: "
          + "one every \(seconds(sustainable)) at best (budget.per_day.max \(number(budget.maxPerDay)) reloads in "
          + "24 h, spent only while the user is awake, \(number(sections.user.sleep.awakeHours)) h a day; "
          + "budget.min_interval \(seconds(budget.minInterval.seconds))). Its requests will wait for budget and "
          + "its freshness will be the budget's, not the interval's")
    }
  }

  /// `15 s`, `14.1 min`, `2.0 h`.
  private static func seconds(_ value: Double) -> String {
    if value < 60 { return "\(number(value)) s" }
    if value < 3_600 { return "\(number(value / 60)) min" }
    return "\(number(value / 3_600)) h"
  }

  /// At most one decimal, none for a whole number.
  private static func number(_ value: Double) -> String {
    let tenths = (value * 10).rounded()
    return tenths.truncatingRemainder(dividingBy: 10) == 0 ? "\(Int(tenths / 10))" : "\(tenths / 10)"
  }
}
