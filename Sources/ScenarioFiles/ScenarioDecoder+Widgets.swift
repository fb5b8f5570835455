import SimulationEngine
import WidgetModel
import Yams

extension ScenarioDecoder {
  static func decodeWidgets(_ value: YAMLValue) throws(ScenarioError) -> [WidgetConfiguration] {
    let nodes = try value.sequence()
    guard !nodes.isEmpty else { throw value.error("expected at least one widget") }
    // Each widget is at least one instance: a longer list is refused before any of it is decoded.
    guard nodes.count <= maximumTotalInstances else {
      throw value.error("at most \(maximumTotalInstances) widget instances on one device, got \(nodes.count) widgets")
    }
    var widgets: [WidgetConfiguration] = []
    var idValues: [String: YAMLValue] = [:]
    var sharing = KindDataSharing(noun: "widgets")
    for (index, node) in nodes.enumerated() {
      let path = ScenarioPath.widgetPath(node: node, index: index, base: value.path)
      let widgetValue = YAMLValue(node: node, path: path, source: value.source)
      var reader = try widgetValue.mapping()
      let id = try decodeWidgetID(&reader, idValues: &idValues)
      let kindValue = try reader.required("kind", "the widget kind, e.g. NewsHeadlines")
      let kind = try kindValue.string()
      if kind.hasPrefix("control:") {
        throw kindValue.error("'control:' begins the names the simulator gives control kinds; drop it")
      }
      var widget = WidgetConfiguration(id: id, kind: kind, timeline: TimelineConfiguration(policy: .never))
      try decodeFamilyAndPlacement(&reader, into: &widget, widgetValue: widgetValue)
      if let instances = reader.optional("instances") {
        widget.instances = try instances.integer(in: 1...maximumInstances)
      }
      widget.timeline = try decodeTimeline(try reader.required("timeline", "policy: at_end, after or never"))
      if let build = reader.optional("build") { widget.build = try decodeBuild(build, perEntry: true) }
      if let data = reader.optional("data") { try decodeWidgetData(data, into: &widget, sharing: &sharing) }
      if let taps = reader.optional("taps") { widget.tapsPerDay = try perDay(taps) }
      try sharing.decodePushHandler(reader.optional("push_handler"), &widget, index: widgets.count)
      if let relevance = reader.optional("relevance") { widget.relevance = try decodeRelevance(relevance) }
      try reader.finish()
      widgets.append(widget)
    }
    try sharing.share(into: &widgets)
    return widgets
  }

  /// A widget's `id`: letters, digits, `_` and `-` only, used by no widget before it (`idValues`: each
  /// id with where it is written, for the message) and by no reserved row of the reports.
  private static func decodeWidgetID(_ reader: inout MappingReader, idValues: inout [String: YAMLValue])
    throws(ScenarioError) -> String
  {
    let idValue = try reader.required("id", "a unique name for reports, e.g. headlines")
    let id = try idValue.string()
    guard id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
      throw idValue.error("ids may hold only letters, digits, '_' and '-', got \(idValue.shown)")
    }
    if let first = idValues[id] {
      let line = first.node.mark.map { " (line \($0.line))" } ?? ""
      throw idValue.error("duplicate widget id '\(id)': already used by another widget\(line)")
    }
    if reservedIDs.contains(id) {
      throw idValue.error(
        "'\(id)' names another row of the reports (\(reservedIDs.sorted().joined(separator: ", "))): pick another id")
    }
    idValues[id] = idValue
    return id
  }

  /// A widget's `family` and `placement`, then whether each placement shows that family.
  private static func decodeFamilyAndPlacement(
    _ reader: inout MappingReader, into widget: inout WidgetConfiguration, widgetValue: YAMLValue
  ) throws(ScenarioError) {
    let familyValue = reader.optional("family")
    if let familyValue { widget.family = try familyValue.choice(WidgetFamily.self) }
    let placementValue = reader.optional("placement")
    if let placementValue {
      widget.placements = try decodePlacements(placementValue, allowed: WidgetPlacement.widgetPlacements)
    }
    try checkPlacement(widget, familyValue: familyValue, placementValue: placementValue, widgetValue: widgetValue)
  }

  /// A widget's `data`, warning when a WidgetKit push would reload a widget whose build never fetches, and
  /// handed to `sharing`, which checks it against the data other widgets of its kind give.
  private static func decodeWidgetData(
    _ data: YAMLValue, into widget: inout WidgetConfiguration, sharing: inout KindDataSharing
  ) throws(ScenarioError) {
    widget.data = try decodeData(data)
    if widget.data.pushes.contains(.widget) && widget.build.fetchProbability == 0 {
      data.warn(
        "a WidgetKit push reloads the widget without waking the app, and this widget's build does not fetch "
          + "(build.fetch probability 0): it shows only what the app last wrote to the App Group store")
    }
    try sharing.give(widget.data, at: data, kind: widget.kind)
  }

  static func checkPlacement(
    _ widget: WidgetConfiguration, familyValue: YAMLValue?, placementValue: YAMLValue?, widgetValue: YAMLValue
  ) throws(ScenarioError) {
    let at = familyValue ?? placementValue ?? widgetValue
    // The surface table says which families each placement shows.
    for placement in widget.placements where !placement.rule.shows(widget.family) {
      let family = widget.family.rawValue
      switch placement.rule.families {
      case .accessory:
        throw at.error(
          "Lock Screen widgets use an accessory family (accessoryCircular, accessoryRectangular, accessoryInline), got \(family)"
        )
      case .system, .systemSmall:
        if widget.family.isAccessory {
          throw at.error("\(family) is a Lock Screen family; use placement lock_screen or a system family")
        }
        // Only a placement of systemSmall alone refuses a system family.
        throw at.error("\(placement.rule.name) shows systemSmall widgets, got \(family)")
      }
    }
  }

  /// `placement: home` or a list, `[home, standby]`: each one of `allowed`, none twice.
  static func decodePlacements(_ value: YAMLValue, allowed: [WidgetPlacement]) throws(ScenarioError)
    -> [WidgetPlacement]
  {
    var items: [YAMLValue] = [value]
    if case .sequence = value.node {
      items = try value.sequence().enumerated().map {
        YAMLValue(node: $1, path: "\(value.path)[\($0)]", source: value.source)
      }
      guard !items.isEmpty else { throw value.error("expected at least one placement") }
    }
    var placements: [WidgetPlacement] = []
    let names = allowed.map(\.rawValue)
    for item in items {
      let name = try item.scalarText().trimmingWhitespace
      guard let placement = WidgetPlacement(rawValue: name), allowed.contains(placement) else {
        throw item.error(
          "expected one of \(names.joined(separator: ", ")), got \(item.shown)\(DidYouMean.hint(for: name, among: names))"
        )
      }
      if placements.contains(placement) { throw item.error("\(item.shown) is listed twice") }
      placements.append(placement)
    }
    return placements
  }

  /// The data sources of one list's kinds (`widgets` or `controls`): a kind's data may be given on any of its
  /// entries, the entries that give it must agree, the others share it; a push handler follows the data
  /// (`on_change: push` implies one, and `push_handler: false` may not meet a kind that pushes).
  struct KindDataSharing {
    /// "widgets" or "controls", for messages.
    let noun: String
    var dataOfKind: [String: (data: DataConfiguration, value: YAMLValue)] = [:]
    /// Entries given `push_handler: false`: their position in the list and the value.
    var explicitlyWithout: [(index: Int, value: YAMLValue)] = []

    /// An entry of kind `kind` gives `data` (at `value`): it must agree with data given before.
    mutating func give(_ data: DataConfiguration, at value: YAMLValue, kind: String) throws(ScenarioError) {
      if let other = dataOfKind[kind],
        other.data.changes != data.changes || other.data.onChange != data.onChange || other.data.pushes != data.pushes
          || other.data.scheduled != data.scheduled
      {
        let line = other.value.node.mark.map { " at line \($0.line)" } ?? ""
        throw value.error("\(noun) of kind '\(kind)' share one data source: this differs from the data given\(line)")
      }
      dataOfKind[kind] = (data, value)
    }

    /// `push_handler: true|false` of the entry at `index`: whether it has a push handler (implied by its own
    /// `on_change: push`).
    mutating func decodePushHandler(_ value: YAMLValue?, _ configuration: inout WidgetConfiguration, index: Int)
      throws(ScenarioError)
    {
      configuration.pushHandler = configuration.data.pushes.contains(.widget)
      guard let value else { return }
      let handler = try value.bool()
      if !handler && configuration.data.pushes.contains(.widget) {
        throw value.error("on_change: push needs a push handler; remove push_handler: false or the push")
      }
      configuration.pushHandler = handler
      if !handler { explicitlyWithout.append((index, value)) }
    }

    /// Gives every entry its kind's data (and the push handler a pushing kind implies), refusing a
    /// `push_handler: false` whose kind's data, given on another entry, sends pushes.
    func share(into configurations: inout [WidgetConfiguration]) throws(ScenarioError) {
      for index in configurations.indices {
        guard let data = dataOfKind[configurations[index].kind]?.data else { continue }
        configurations[index].data = data
        if data.pushes.contains(.widget) { configurations[index].pushHandler = true }
      }
      for (index, value) in explicitlyWithout where configurations[index].data.pushes.contains(.widget) {
        throw value.error(
          "its kind's data has on_change: push, which needs a push handler; remove push_handler: false or the push")
      }
    }
  }

  /// `relevance: 0.5` (every hour) or `{profile: [24 scores]}`: the entries' relevance score by clock hour.
  static func decodeRelevance(_ value: YAMLValue) throws(ScenarioError) -> HourlyRate {
    if case .mapping = value.node {
      var reader = try value.mapping()
      let profile = try reader.required("profile", "24 relevance scores, one per clock hour from 00:00")
      try reader.finish()
      let nodes = try profile.sequence()
      guard nodes.count == 24 else {
        throw profile.error("a relevance profile has 24 values (one per clock hour from 00:00), got \(nodes.count)")
      }
      var scores: [Double] = []
      for (hour, node) in nodes.enumerated() {
        scores.append(
          try YAMLValue(node: node, path: "\(profile.path)[\(hour)]", source: value.source).number(in: 0...1_000_000))
      }
      return HourlyRate(profile: scores)
    }
    return HourlyRate(perHour: try value.number(in: 0...1_000_000))
  }

  /// `{from: "09:30", to: "16:00"}`: a daily local window (may cross midnight), not empty.
  static func decodeWindow(_ value: YAMLValue) throws(ScenarioError) -> SleepWindow {
    var reader = try value.mapping()
    let times = try DailyWindowReader(
      &reader, from: "a time of day, e.g. \"09:30\"", to: "a time of day, e.g. \"16:00\"")
    try reader.finish()
    return try times.window("window")
  }

  /// A widget's `build` (`perEntry`: it may give `memory_per_entry`) or a control's `value`, which has no
  /// timeline entries.
  static func decodeBuild(
    _ value: YAMLValue, base: BuildConfiguration = .init(), perEntry: Bool = false
  ) throws(ScenarioError) -> BuildConfiguration {
    var reader = try value.mapping()
    var build = base
    if let cpu = reader.optional("cpu") { build.cpuSeconds = try DistributionReader.read(cpu, quantity: .duration) }
    if let fetch = reader.optional("fetch") {
      var section = try fetch.mapping()
      if let probability = section.optional("probability") { build.fetchProbability = try probability.probability() }
      if let size = section.optional("size") { build.fetchBytes = try DistributionReader.read(size, quantity: .size) }
      try section.finish()
    }
    if let memory = reader.optional("memory") {
      build.memoryBytes = try DistributionReader.read(memory, quantity: .size)
    }
    if perEntry, let memory = reader.optional("memory_per_entry") {
      build.memoryPerEntryBytes = try memory.bytes(in: 0...1e9)
    }
    if let limit = reader.optional("time_limit") {
      build.timeLimit = try limit.duration(in: 0...3_600, exclusiveLower: true)
    }
    try reader.finish()
    return build
  }

  static func decodeData(_ value: YAMLValue) throws(ScenarioError) -> DataConfiguration {
    var reader = try value.mapping()
    var data = DataConfiguration()
    if let changes = reader.optional("changes") {
      if let scheduled = try scheduledChanges(changes) {
        data.scheduled = scheduled
      } else {
        data.changes = try hourlyRate(changes, allowPerDay: true)
      }
    }
    if let action = reader.optional("on_change") {
      (data.onChange, data.pushes) = try changeActions(action)
    }
    try reader.finish()
    return data
  }
}

extension ScenarioDecoder {
  /// `on_change`: one of none, reload_kind, reload_all, push, silent_push, or a list such as
  /// `[push, reload_kind]`. `silent_push` without a reload means `reload_kind`: the app the push launches
  /// reloads the kind.
  static func changeActions(_ value: YAMLValue) throws(ScenarioError) -> (DataChangeAction, Set<PushKind>) {
    var items: [YAMLValue] = []
    if case .sequence = value.node {
      for (index, node) in try value.sequence().enumerated() {
        items.append(YAMLValue(node: node, path: "\(value.path)[\(index)]", source: value.source))
      }
    } else {
      items = [value]
    }
    guard !items.isEmpty else { throw value.error("expected at least one action") }
    var action = DataChangeAction.none
    var pushes: Set<PushKind> = []
    var reloads = 0
    let names = DataChangeAction.allCases.map(\.rawValue) + PushKind.allCases.map(\.row.scenarioKey.description)
    for item in items {
      let name = try item.scalarText().trimmingWhitespace
      if let push = PushKind.allCases.first(where: { $0.row.scenarioKey.description == name }) {
        pushes.insert(push)
      } else if let choice = DataChangeAction(rawValue: name) {
        if choice != .none { reloads += 1 }
        action = choice
      } else {
        throw item.error(
          "expected one of \(names.joined(separator: ", ")), got \(item.shown)\(DidYouMean.hint(for: name, among: names))"
        )
      }
    }
    if reloads > 1 { throw value.error("give at most one of reload_kind and reload_all") }
    if pushes.contains(where: { $0.row.launches != nil }) && action == .none { action = .reloadKind }
    return (action, pushes)
  }
}

/// How key paths name list elements: widgets by id (`widgets[headlines]`), others by index.
enum ScenarioPath {
  static func widgetPath(node: Node, index: Int, base: String) -> String {
    if case .mapping(let mapping) = node, let id = mapping["id"]?.string, !id.isEmpty {
      return "\(base)[\(id)]"
    }
    return "\(base)[\(index)]"
  }
}
