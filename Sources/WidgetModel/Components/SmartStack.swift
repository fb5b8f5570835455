import SimulationEngine

/// The user's Smart Stack under the relevance rule [A]: every installed `smart_stack` instance of the app sits
/// in one stack of `user.smart_stack.size` widgets, the rest other apps' widgets; each Home Screen view shows
/// one, with probability proportional to its relevance at that clock hour. The weights are tabulated once per
/// device, so a view costs one uniform draw and a scan of the app's few stack members.
struct SmartStack {
  /// The app's installed stack instances (indices into the device's instances).
  let members: [Int]
  /// Per clock hour and member: the relevance of members 0...k summed (`cumulative[hour * members + k]`),
  /// and the whole stack's relevance, other apps' widgets included.
  private let cumulative: [Double]
  private let totals: [Double]
  let rotation: RandomStream

  init(
    instances: [WidgetInstance], widgets: [WidgetConfiguration], settings: SmartStackConfiguration,
    rotation: RandomStream
  ) {
    let members =
      settings.rule == .relevance
      ? instances.indices.filter {
        instances[$0].placementRule.homeScreenShare == .smartStack && instances[$0].installed
      } : []
    var cumulative: [Double] = []
    var totals: [Double] = []
    for hour in 0..<24 {
      var sum = 0.0
      for member in members {
        sum += widgets[instances[member].widgetIndex].relevance[hour]
        cumulative.append(sum)
      }
      totals.append(sum + Double(Swift.max(0, settings.size - members.count)) * settings.otherRelevance)
    }
    self.members = members
    self.cumulative = cumulative
    self.totals = totals
    self.rotation = rotation
  }

  /// The instance a Home Screen view at `hour` shows; -1 for another app's widget (or no stack). No draw
  /// when the app has no widget in a stack.
  func shown(hour: Int) -> Int {
    guard !members.isEmpty, totals[hour] > 0 else { return -1 }
    let point = rotation.uniform() * totals[hour]
    let base = hour * members.count
    for position in members.indices where point < cumulative[base + position] {
      return members[position]
    }
    return -1
  }
}
