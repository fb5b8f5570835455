import SimulationEngine

/// Everything one simulation needs: who the user is, how iOS budgets reloads, and the widgets.
///
/// Built by the scenario layer from a file (or directly by tests); every default below is documented,
/// with its source, in Scenarios/README.md.
public struct ScenarioConfiguration: Sendable {
  /// Name used for the report folder.
  public var name: String
  /// Days per replication that every statistic covers (after the warm-up).
  public var days: Int
  /// Days simulated before them and left out of every statistic (state carries over: budgets, withheld
  /// requests, data changes the app has not learned of, battery charge).
  public var warmupDays = 0
  /// The scenario seed every random stream derives from.
  public var seed: UInt64
  /// The UTC date of day 0 (`start_date`): names the days in `server_load.csv`'s timestamps.
  public var startDate = CalendarDate.defaultStart
  /// Independent replications (each with its own streams).
  public var replications: Int
  public var user: UserConfiguration
  public var budget: BudgetConfiguration
  public var system: SystemConfiguration
  public var device: DeviceConfiguration
  public var widgets: [WidgetConfiguration] {
    didSet { identifyInstances() }
  }
  /// The host app: its fetch and the channels that run it in the background.
  public var app: AppConfiguration
  /// The app's Live Activities.
  public var liveActivities: [LiveActivityConfiguration]
  /// Broadcast channels the Live Activities may subscribe to.
  public var broadcastChannels: [BroadcastChannelConfiguration]
  /// One device, or a fleet of varied devices.
  public var fleet: FleetConfiguration
  /// Fleet-wide events: data changes every device in their audience sees at once.
  public var events: [FleetEventConfiguration] = []
  /// The app's servers (the push fan-out rate).
  public var server = ServerConfiguration()

  public init(
    name: String, days: Int = 7, seed: UInt64 = 1, replications: Int = 5, user: UserConfiguration = .init(),
    budget: BudgetConfiguration = .init(), system: SystemConfiguration = .init(), device: DeviceConfiguration = .init(),
    widgets: [WidgetConfiguration], app: AppConfiguration = .init(),
    liveActivities: [LiveActivityConfiguration] = [], broadcastChannels: [BroadcastChannelConfiguration] = [],
    fleet: FleetConfiguration = .init()
  ) {
    self.broadcastChannels = broadcastChannels
    self.liveActivities = liveActivities
    self.fleet = fleet
    self.name = name
    self.days = days
    self.seed = seed
    self.replications = replications
    self.user = user
    self.budget = budget
    self.system = system
    self.device = device
    self.widgets = widgets
    self.app = app
    identifyInstances()
  }

  /// Days each replication simulates: the warm-up, then the measured days.
  public var simulatedDays: Int { warmupDays + days }

  /// Whether server load is kept per second: fleets, unless `server.per_second: false`.
  public var keepsSecondLoad: Bool { fleet.devices > 1 && server.perSecond }

  /// The widget instances in simulation order: each configuration's placements in turn, each with its
  /// copies. Controls are configurations too (``WidgetSurface/control``), listed after the widgets. Kept with
  /// the widgets (every device of a run reads them, and building them makes a label for each).
  public private(set) var instances: [WidgetInstanceIdentity] = []

  /// Distinct data sources (``WidgetConfiguration/dataKey``: widget kinds, then control kinds), in order of
  /// first appearance; data changes are a process per kind.
  public private(set) var kinds: [String] = []

  private mutating func identifyInstances() {
    var identities: [WidgetInstanceIdentity] = []
    for (index, widget) in widgets.enumerated() {
      for placement in widget.placements {
        for copy in 0..<widget.instances {
          var label = widget.id
          if widget.placements.count > 1 { label += "@\(placement.rawValue)" }
          if widget.instances > 1 { label += "#\(copy + 1)" }
          identities.append(WidgetInstanceIdentity(label: label, widgetIndex: index, copy: copy, placement: placement))
        }
      }
    }
    instances = identities
    var seen: [String] = []
    for widget in widgets where !seen.contains(widget.dataKey) { seen.append(widget.dataKey) }
    kinds = seen
  }
}

/// Which configured widget an instance is, and how reports name it.
public struct WidgetInstanceIdentity: Sendable, Hashable {
  /// `id`, `id@placement` when the widget sits in several places, with `#n` (1-based) when it has several
  /// instances.
  public let label: String
  public let widgetIndex: Int
  public let copy: Int
  public let placement: WidgetPlacement

  public init(label: String, widgetIndex: Int, copy: Int, placement: WidgetPlacement) {
    self.label = label
    self.widgetIndex = widgetIndex
    self.copy = copy
    self.placement = placement
  }
}
