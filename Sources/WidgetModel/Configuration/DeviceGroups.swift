/// A fleet's phones grouped by which widgets they have, when `fleet.install` puts some widgets on only some
/// phones: a population of phones with one widget and phones with two is bimodal, and its quantiles over all
/// phones describe neither kind. Per group, the same distributions as over the whole fleet are kept.
///
/// With up to ``maximumSetWidgets`` such widgets, one group per set of them installed (2^n groups, the widgets
/// every phone has left out of the name); with more, one group per number of them installed.
public struct DeviceGroups: Sendable, Equatable {
  /// Widgets (by index in `widgets`) whose install probability lies strictly between 0 and 1.
  public let widgets: [Int]
  /// Whether groups are numbers of those widgets installed rather than sets of them.
  public let byCount: Bool

  /// Most widgets grouped by set (16 groups).
  public static let maximumSetWidgets = 4

  public init(_ configuration: borrowing ScenarioConfiguration) {
    widgets = configuration.widgets.indices.filter { index in
      guard configuration.fleet.devices > 1, let probability = configuration.fleet.installProbability[index] else {
        return false
      }
      return probability > 0 && probability < 1
    }
    byCount = widgets.count > DeviceGroups.maximumSetWidgets
  }

  /// Groups (0 when every phone has the same widgets: then there is nothing to group).
  public var count: Int {
    if widgets.isEmpty { return 0 }
    return byCount ? widgets.count + 1 : 1 << widgets.count
  }

  /// The group of a phone; `installed` is indexed like `widgets` of the configuration.
  public func group(installed: [Bool]) -> Int {
    var group = 0
    for (bit, widget) in widgets.enumerated() where widget < installed.count && installed[widget] {
      group += byCount ? 1 : 1 << bit
    }
    return group
  }

  /// How reports name a group (the `widget` column, after `fleet:`): the grouped widgets it has, joined by
  /// `+`, or `none`; with groups by number, `N_of_M` widgets.
  public func label(_ group: Int, widgetIDs: [String]) -> String {
    if byCount { return "\(group)_of_\(widgets.count)" }
    let names = widgets.enumerated().filter { group & (1 << $0.offset) != 0 }.map { widgetIDs[$0.element] }
    return names.isEmpty ? "none" : names.joined(separator: "+")
  }
}
