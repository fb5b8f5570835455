import SimulationEngine
import WidgetModel
import Yams

/// `controls:`: iOS 18 controls (`ControlWidget`), decoded into configurations of surface `control`.
extension ScenarioDecoder {
  /// Each control: `id`, `kind`, `placement` (control_center, lock_screen, action_button; or a list),
  /// `instances`, `value` (what the async `currentValue()` costs: cpu, fetch, memory, time_limit, as a
  /// widget's `build`), `taps: {per_day}` (each runs its App Intent and reloads the control), `data`
  /// (changes, on_change: reload_kind / reload_all / push / silent_push), `push_handler`.
  static func decodeControls(_ value: YAMLValue, takenIDs: Set<String>) throws(ScenarioError)
    -> [WidgetConfiguration]
  {
    var controls: [WidgetConfiguration] = []
    var ids = takenIDs
    var sharing = KindDataSharing(noun: "controls")
    let nodes = try value.sequence()
    guard takenIDs.count + nodes.count <= maximumTotalInstances else {
      throw value.error(
        "at most \(maximumTotalInstances) widget instances on one device, got \(takenIDs.count) widgets and "
          + "\(nodes.count) controls")
    }
    for (index, node) in nodes.enumerated() {
      let element = YAMLValue(
        node: node, path: ScenarioPath.widgetPath(node: node, index: index, base: value.path), source: value.source)
      var reader = try element.mapping()
      let idValue = try reader.required("id", "a unique name for reports, e.g. front_door")
      let id = try idValue.string()
      guard id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
        throw idValue.error("ids may hold only letters, digits, '_' and '-', got \(idValue.shown)")
      }
      guard !ids.contains(id), !reservedIDs.contains(id) else {
        throw idValue.error(
          "duplicate id '\(id)': widgets, controls, Live Activities and \(reservedIDs.sorted().joined(separator: ", ")) "
            + "need distinct names in reports")
      }
      ids.insert(id)
      let kind = try reader.required("kind", "the control kind, e.g. DoorLock").string()
      var control = WidgetConfiguration(
        id: id, kind: kind, surface: .control, family: .systemSmall, placement: .controlCenter,
        timeline: TimelineConfiguration(policy: .never), build: controlValueDefault)
      if let placement = reader.optional("placement") {
        control.placements = try decodePlacements(placement, allowed: WidgetPlacement.controlPlacements)
      }
      if let instances = reader.optional("instances") {
        control.instances = try instances.integer(in: 1...maximumInstances)
      }
      if let valueSection = reader.optional("value") {
        control.build = try decodeBuild(valueSection, base: control.build)
      }
      if let taps = reader.optional("taps") { control.tapsPerDay = try perDay(taps) }
      if let data = reader.optional("data") {
        control.data = try decodeData(data)
        try sharing.give(control.data, at: data, kind: kind)
      }
      try sharing.decodePushHandler(reader.optional("push_handler"), &control, index: controls.count)
      try reader.finish()
      controls.append(control)
    }
    try sharing.share(into: &controls)
    return controls
  }

  /// Names reports use for subjects other than widgets, controls and Live Activities.
  static let reservedIDs: Set<String> = ["widget_push", "device", "app", "fleet", "server"]

  /// A control's `currentValue()` by default: a small read of the App Group store, no network ([A]: 20 ms
  /// of CPU, no fetch, 8 MB peak).
  static let controlValueDefault = BuildConfiguration(
    cpuSeconds: try! Distribution.lognormal(median: 0.02, sigma: 0.5), fetchProbability: 0,  // literal, valid
    fetchBytes: try! Distribution.lognormal(median: 2_000, sigma: 0.5),  // literal, valid
    memoryBytes: try! Distribution.normal(mean: 8_000_000, sd: 1_000_000, lower: 1_000_000))  // literal, valid
}
