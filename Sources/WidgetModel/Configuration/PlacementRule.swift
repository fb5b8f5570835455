import Results

/// One row of the surface table: for a placement, what may sit there, which of the user's views see it,
/// whether the system refreshes it on its own, and whether a view there catches up a pending reload.
///
/// The table (``WidgetPlacement/rule``) sits beside the trigger table (``ReloadCause/trigger``): the
/// device reads every placement's behaviour from it, and docs/ARCHITECTURE.md holds it as
/// ``markdownTable`` prints it (a test keeps the two in step). Adding a surface is a placement case, its
/// row here, and (when its views or refreshes follow a habit of their own, as StandBy's and CarPlay's do)
/// the component that drives them.
public struct PlacementRule: Sendable, Equatable {
  /// Which of the user's views see a placement.
  public enum Views: String, Sendable, Equatable, CaseIterable {
    /// Home Screen views (`user.home_screen_views`), as ``HomeScreenShare`` says.
    case homeScreen = "home_screen_views"
    /// Lock Screen views (`user.lock_screen_views`).
    case lockScreen = "lock_screen_views"
    /// StandBy views while the phone charges at night (`user.standby_views`).
    case standby = "standby_views"
    /// Glances while the user drives (`user.carplay`).
    case carplay = "carplay_views"
    /// Control Center views (`user.control_center_views`).
    case controlCenter = "control_center_views"
    /// None: pressed, never looked at (no staleness is measured).
    case none
  }

  /// Which Home Screen views see a Home Screen placement.
  public enum HomeScreenShare: String, Sendable, Equatable {
    /// Every one.
    case every
    /// Those that visit another page (`user.other_page_probability`).
    case otherPage = "other_page"
    /// Those at which the Smart Stack shows it (`user.smart_stack`).
    case smartStack = "smart_stack"
  }

  /// The widget families a placement shows.
  public enum Families: String, Sendable, Equatable {
    /// The accessory families (`accessoryCircular`, `accessoryRectangular`, `accessoryInline`).
    case accessory
    /// The system families (`systemSmall` ... `systemExtraLarge`).
    case system
    /// `systemSmall` alone.
    case systemSmall
  }

  /// What may sit at a placement: widgets, controls, or both.
  public struct Holds: OptionSet, Sendable, Equatable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let widgets = Holds(rawValue: 1)
    public static let controls = Holds(rawValue: 2)

    /// Whether `surface` may sit there.
    public func contains(_ surface: WidgetSurface) -> Bool {
      contains(surface == .widget ? .widgets : .controls)
    }
  }

  public let placement: WidgetPlacement
  /// What may sit there.
  public let holds: Holds
  /// The families a widget there may have (a control's family is not read).
  public let families: Families
  public let views: Views
  /// For ``Views/homeScreen``: which of those views see it.
  public let homeScreenShare: HomeScreenShare
  /// The system's own refresh of everything there, exempt (its trigger names the cause); nil: none.
  public let systemRefresh: ReloadCause?
  /// Whether a view that finds a reload waiting raises a catch-up reload (``ReloadCause/catchUp``).
  public let catchesUpWhenSeen: Bool

  init(
    _ placement: WidgetPlacement, holds: Holds, families: Families, views: Views,
    homeScreenShare: HomeScreenShare = .every, systemRefresh: ReloadCause? = nil, catchesUpWhenSeen: Bool = false
  ) {
    self.placement = placement
    self.holds = holds
    self.families = families
    self.views = views
    self.homeScreenShare = homeScreenShare
    self.systemRefresh = systemRefresh
    self.catchesUpWhenSeen = catchesUpWhenSeen
  }

  /// What users call the placement, for messages ("StandBy"); a plain value, so a device keeps its rows
  /// without reference counting.
  public var name: String {
    switch placement {
    case .home: "The Home Screen"
    case .homeOtherPage: "Another Home Screen page"
    case .smartStack: "A Smart Stack"
    case .lockScreen: "The Lock Screen"
    case .standby: "StandBy"
    case .carplay: "CarPlay"
    case .controlCenter: "Control Center"
    case .actionButton: "The Action button"
    }
  }

  /// Whether a widget of `family` may sit there.
  public func shows(_ family: WidgetFamily) -> Bool {
    switch families {
    case .accessory: family.isAccessory
    case .system: !family.isAccessory
    case .systemSmall: family == .systemSmall
    }
  }

  /// The surface table, one row per placement in ``WidgetPlacement/allCases`` order.
  static let table: [PlacementRule] = WidgetPlacement.allCases.map { placement in
    switch placement {
    case .home: PlacementRule(.home, holds: .widgets, families: .system, views: .homeScreen)
    case .homeOtherPage:
      PlacementRule(
        .homeOtherPage, holds: .widgets, families: .system, views: .homeScreen,
        homeScreenShare: .otherPage, catchesUpWhenSeen: true)
    case .smartStack:
      PlacementRule(
        .smartStack, holds: .widgets, families: .system, views: .homeScreen,
        homeScreenShare: .smartStack)
    case .lockScreen:
      PlacementRule(
        .lockScreen, holds: [.widgets, .controls], families: .accessory, views: .lockScreen)
    case .standby:
      PlacementRule(
        .standby, holds: .widgets, families: .systemSmall, views: .standby, systemRefresh: .standby)
    case .carplay:
      PlacementRule(
        .carplay, holds: .widgets, families: .systemSmall, views: .carplay, systemRefresh: .carplay)
    case .controlCenter:
      PlacementRule(.controlCenter, holds: .controls, families: .system, views: .controlCenter)
    case .actionButton:
      PlacementRule(.actionButton, holds: .controls, families: .system, views: .none)
    }
  }

  /// The table as a Markdown table (docs/ARCHITECTURE.md's "The surface table" holds it).
  public static var markdownTable: String {
    var lines = [
      "| placement | holds | widget families | seen at | system refresh | a view catches up |",
      "|---|---|---|---|---|---|",
    ]
    for rule in table {
      let seen =
        rule.views == .homeScreen && rule.homeScreenShare != .every
        ? "\(rule.views.rawValue) (\(rule.homeScreenShare.rawValue))" : rule.views.rawValue
      let refresh = rule.systemRefresh.map { "`\($0.trigger.name)`" } ?? "none"
      let holds = WidgetSurface.allCases.filter { rule.holds.contains($0) }.map { "\($0.rawValue)s" }
      lines.append(
        "| `\(rule.placement.rawValue)` | \(holds.joined(separator: ", ")) | "
          + "\(rule.holds.contains(.widget) ? rule.families.rawValue : "-") | \(seen) | \(refresh) | "
          + "\(rule.catchesUpWhenSeen ? "yes" : "no") |")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

extension WidgetPlacement {
  /// This placement's row of the surface table (a device keeps its instances' rows at hand).
  public var rule: PlacementRule { PlacementRule.table.first { $0.placement == self }! }

  /// Where a widget (not a control) may sit, in the table's order.
  public static let widgetPlacements = allCases.filter { $0.rule.holds.contains(.widget) }
  /// Where a control (not a widget) may sit, in the table's order.
  public static let controlPlacements = allCases.filter { $0.rule.holds.contains(.control) }
}
