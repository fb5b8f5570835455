import SimulationEngine
import WidgetModel
import Yams

/// One variant of a sweep: its number, its name when the sweep file gives one, and the value each swept key
/// takes.
public struct SweepPoint: Sendable, Equatable {
  public let index: Int
  /// The design's name from the sweep file's `points` list (`poll 15m`), with the other axes' settings after
  /// it when the grid has more (`poll 15m, budget.per_day.max=40`); empty for a sweep without labels.
  public let label: String
  public let assignments: [Assignment]

  public struct Assignment: Sendable, Equatable {
    public let key: String
    /// The value as written in the sweep file (YAML scalar text).
    public let value: String
  }

  /// `key=value, ...`, for messages.
  public var settings: String { assignments.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") }

  /// `"label" (key=value, ...)`, or the settings alone without a label, for messages.
  public var described: String { label.isEmpty ? settings : "\"\(label)\" (\(settings))" }
}

/// The `sweep` section: parameters by key path, each a list or range of values; lockstep groups whose lists
/// move together; combinations to exclude; replications per point; the objective the best point is chosen by.
public struct SweepSpecification: Sendable {
  /// One axis of the grid: one key (a plain parameter) or several moving in lockstep, with their values.
  public struct Dimension: Sendable, Equatable {
    public let keys: [String]
    /// values[i][k]: the i-th setting of key k.
    public let values: [[String]]
    /// labels[i]: the i-th setting's name, for the `points` list; nil for `parameters` and `lockstep`.
    public var labels: [String]? = nil
  }

  /// Where a swept key is written in the sweep file, for errors about its values.
  public struct Place: Sendable, Equatable {
    public let line: Int?
    public let column: Int?
    /// The key path inside the file, e.g. `sweep.parameters.budget.per_day.max`.
    public let keyPath: String
  }

  public let dimensions: [Dimension]
  /// Each exclusion: key -> value; a point matching all of them is skipped.
  public let exclusions: [[String: String]]
  public let replications: Int?
  /// The criterion for the best point, when the file gives one.
  public var objective: SweepObjective?
  /// Where the objective's metric and widget are written, for errors found once the metrics are known.
  public var objectivePlaces: (metric: ScenarioError, widget: ScenarioError?)?
  /// Each swept key's place in the file.
  public var places: [String: Place] = [:]
  /// The `select` section: choose the best feasible design sequentially, with a guarantee.
  public var selection: SweepSelection?

  /// Every swept key, in order.
  public var keys: [String] { dimensions.flatMap(\.keys) }

  /// The grid's points: the cross product of the dimensions (the first varies slowest), lockstep keys taking
  /// their i-th values together, excluded combinations removed, numbered from 0.
  public var points: [SweepPoint] {
    // Each combination with the label of its `points` setting, if the grid has that axis.
    var combinations: [(label: String?, assignments: [SweepPoint.Assignment])] = [(nil, [])]
    for dimension in dimensions {
      var next: [(label: String?, assignments: [SweepPoint.Assignment])] = []
      for prefix in combinations {
        for (offset, setting) in dimension.values.enumerated() {
          next.append(
            (
              dimension.labels?[offset] ?? prefix.label,
              prefix.assignments + zip(dimension.keys, setting).map { SweepPoint.Assignment(key: $0, value: $1) }
            ))
        }
      }
      combinations = next
    }
    let kept = combinations.filter { combination in
      !exclusions.contains { exclusion in
        exclusion.allSatisfy { key, value in combination.assignments.contains { $0.key == key && $0.value == value } }
      }
    }
    let labelledKeys = Set(dimensions.filter { $0.labels != nil }.flatMap(\.keys))
    return kept.enumerated().map { offset, combination in
      // A design crossed with other axes is named with their settings, so every point's label is unique.
      let others = combination.assignments.filter { !labelledKeys.contains($0.key) }.map { "\($0.key)=\($0.value)" }
      let label = combination.label.map { ([$0] + others).joined(separator: ", ") } ?? ""
      return SweepPoint(index: offset, label: label, assignments: combination.assignments)
    }
  }

  static let maximumPoints = 100_000

  /// Reads a `sweep` section.
  static func decode(_ value: YAMLValue) throws(ScenarioError) -> SweepSpecification {
    var reader = try value.mapping()
    var dimensions: [Dimension] = []
    var seen: Set<String> = []
    var places: [String: Place] = [:]
    func note(_ key: String, _ at: YAMLValue, _ keyNode: Node) throws(ScenarioError) {
      guard seen.insert(key).inserted else { throw at.error("'\(key)' is swept twice") }
      places[key] = Place(line: keyNode.mark?.line, column: keyNode.mark?.column, keyPath: at.path)
    }
    if let list = reader.optional("points") {
      dimensions.append(try designs(list, note: note))
    }
    if let parameters = reader.optional("parameters") {
      dimensions += try parameterDimensions(parameters, note: note)
    }
    if let lockstep = reader.optional("lockstep") {
      dimensions += try lockstepDimensions(lockstep, note: note)
    }
    guard !dimensions.isEmpty else {
      // A misspelt `parameters` is the likeliest reason: name it (with its did-you-mean) first.
      _ = reader.optional("exclude")
      _ = reader.optional("replications")
      _ = reader.optional("objective")
      _ = reader.optional("select")
      try reader.finish()
      throw value.error("a sweep needs at least one key under points, parameters or lockstep")
    }
    let exclusions = try reader.optional("exclude").map { v throws(ScenarioError) in try decodeExclusions(v, seen) }
    let replications = try reader.optional("replications")?.count(ScenarioLimits.replications)
    let objectiveValue = reader.optional("objective")
    let objective = try objectiveValue.map { value throws(ScenarioError) in try SweepObjective.decode(value) }
    let selectValue = reader.optional("select")
    try reader.finish()
    if selectValue != nil { try refuseBesideSelect(objectiveValue, reader.optional("replications")) }
    var specification = SweepSpecification(
      dimensions: dimensions, exclusions: exclusions ?? [], replications: replications)
    specification.places = places
    specification.objective = objective
    if let objectiveValue, let objective {
      var section = try objectiveValue.mapping()
      let metric = try section.required(objective.minimize ? "minimize" : "maximize", "").error("")
      specification.objectivePlaces = (metric, section.optional("widget")?.error(""))
    }
    // In Double: a handful of long dimensions would overflow an Int product.
    let count = dimensions.reduce(1.0) { $0 * Double($1.values.count) }
    guard count <= Double(maximumPoints) else {
      throw value.error("the grid has \(WorkEstimate.scientific(count)) points; at most \(maximumPoints)")
    }
    let points = specification.points
    guard !points.isEmpty else { throw value.error("every point of the grid is excluded") }
    if let selectValue {
      specification.selection = try SweepSelection.decode(selectValue, labels: points.map(\.label))
    }
    return specification
  }

  /// Refuses `objective` and `replications` beside `select`: the selection names its own objective and
  /// decides each design's replications.
  static func refuseBesideSelect(_ objective: YAMLValue?, _ replications: YAMLValue?) throws(ScenarioError) {
    if let objective { throw objective.error("give objective or select, not both: select names its own") }
    if let replications {
      throw replications.error("with select, the procedure decides the replications (first, max_replications)")
    }
  }

  /// The `parameters` mapping: one axis of the grid per key path, each with its list or range of values.
  static func parameterDimensions(
    _ parameters: YAMLValue, note: (String, YAMLValue, Node) throws(ScenarioError) -> Void
  ) throws(ScenarioError) -> [Dimension] {
    guard case .mapping(let mapping) = parameters.node else {
      throw parameters.error("expected a mapping of key paths to value lists or ranges")
    }
    var dimensions: [Dimension] = []
    for (keyNode, valueNode) in mapping {
      let key = keyNode.string ?? ""
      let item = YAMLValue(node: valueNode, path: "\(parameters.path).\(key)", source: parameters.source)
      try note(key, item, keyNode)
      dimensions.append(Dimension(keys: [key], values: try values(item).map { [$0] }))
    }
    return dimensions
  }

  /// The `lockstep` list: one axis of the grid per group, whose keys' lists (all of one length) take their
  /// i-th values together.
  static func lockstepDimensions(
    _ lockstep: YAMLValue, note: (String, YAMLValue, Node) throws(ScenarioError) -> Void
  ) throws(ScenarioError) -> [Dimension] {
    var dimensions: [Dimension] = []
    for (index, groupNode) in try lockstep.sequence().enumerated() {
      let group = YAMLValue(node: groupNode, path: "\(lockstep.path)[\(index)]", source: lockstep.source)
      guard case .mapping(let mapping) = groupNode, !mapping.isEmpty else {
        throw group.error("expected a mapping of key paths to value lists that move together")
      }
      var keys: [String] = []
      var lists: [[String]] = []
      for (keyNode, valueNode) in mapping {
        let key = keyNode.string ?? ""
        let item = YAMLValue(node: valueNode, path: "\(group.path).\(key)", source: lockstep.source)
        try note(key, item, keyNode)
        let list = try values(item)
        if let first = lists.first, first.count != list.count {
          throw item.error(
            "lockstep lists must have the same length: \(keys[0]) has \(first.count), \(key) has \(list.count)")
        }
        keys.append(key)
        lists.append(list)
      }
      dimensions.append(Dimension(keys: keys, values: (0..<lists[0].count).map { i in lists.map { $0[i] } }))
    }
    return dimensions
  }

  /// The `exclude` list: combinations of swept keys' values (every key one of `swept`) whose points are left
  /// out.
  static func decodeExclusions(_ exclude: YAMLValue, _ swept: Set<String>) throws(ScenarioError) -> [[String: String]] {
    var exclusions: [[String: String]] = []
    for (index, node) in try exclude.sequence().enumerated() {
      let entry = YAMLValue(node: node, path: "\(exclude.path)[\(index)]", source: exclude.source)
      guard case .mapping(let mapping) = node else { throw entry.error("expected a mapping of key paths to values") }
      var exclusion: [String: String] = [:]
      for (keyNode, valueNode) in mapping {
        let key = keyNode.string ?? ""
        let item = YAMLValue(node: valueNode, path: "\(entry.path).\(key)", source: exclude.source)
        guard swept.contains(key) else {
          throw item.error("'\(key)' is not swept\(DidYouMean.hint(for: key, among: Array(swept)))")
        }
        exclusion[key] = try item.scalarText()
      }
      exclusions.append(exclusion)
    }
    return exclusions
  }

  /// The `points` list: designs by name, each `{label: NAME, set: {KEY: VALUE, ...}}`, every one setting the
  /// same keys (one axis of the grid, as keys in lockstep). Labels are unique and not empty.
  static func designs(
    _ list: YAMLValue, note: (String, YAMLValue, Node) throws(ScenarioError) -> Void
  ) throws(ScenarioError) -> Dimension {
    var keys: [String] = []
    var values: [[String]] = []
    var labels: [String] = []
    var labelPlaces: [String: String] = [:]
    let entries = try list.sequence()
    guard !entries.isEmpty else { throw list.error("expected at least one point: - {label: NAME, set: {KEY: VALUE}}") }
    for (index, node) in entries.enumerated() {
      let entry = YAMLValue(node: node, path: "\(list.path)[\(index)]", source: list.source)
      guard case .mapping = node else {
        throw entry.error("expected a mapping with label (the design's name) and set (the keys it sets)")
      }
      var reader = try entry.mapping()
      let labelValue = try reader.required("label", "the design's name, e.g. \"poll 15m\"")
      let label = try labelValue.scalarText()
      guard !label.allSatisfy(\.isWhitespace) else { throw labelValue.error("a point's label must not be empty") }
      if let first = labelPlaces[label] {
        throw labelValue.error("label '\(label)' is already used by \(first); labels name points and must be unique")
      }
      labelPlaces[label] = "\(entry.path)" + (node.mark.map { " (line \($0.line))" } ?? "")
      let set = try reader.required("set", "a mapping of key paths to this design's values")
      try reader.finish()
      guard case .mapping(let mapping) = set.node, !mapping.isEmpty else {
        throw set.error("expected a mapping of key paths to this design's values")
      }
      var setting: [String: String] = [:]
      for (keyNode, valueNode) in mapping {
        let key = keyNode.string ?? ""
        let item = YAMLValue(node: valueNode, path: "\(set.path).\(key)", source: list.source)
        if index == 0 {
          try note(key, item, keyNode)
          keys.append(key)
        } else if !keys.contains(key) {
          throw item.error(
            "'\(key)' is not set by the first point; every point sets the same keys (\(keys.joined(separator: ", ")))")
        }
        setting[key] = try item.scalarText()
      }
      if let missing = keys.first(where: { setting[$0] == nil }) {
        throw set.error("'\(missing)' is not set; every point sets the same keys (\(keys.joined(separator: ", ")))")
      }
      values.append(keys.map { setting[$0] ?? "" })
      labels.append(label)
    }
    return Dimension(keys: keys, values: values, labels: labels)
  }

  /// A list of scalars, or `{from, to, step}` for numbers (inclusive).
  static func values(_ value: YAMLValue) throws(ScenarioError) -> [String] {
    if case .mapping = value.node {
      var reader = try value.mapping()
      let from = try reader.required("from", "the first value").number()
      let to = try reader.required("to", "the last value").number()
      let stepValue = try reader.required("step", "the distance between values, > 0")
      let step = try stepValue.number(in: 0...1e15, exclusiveLower: true)
      try reader.finish()
      guard to >= from else { throw value.error("to (\(to)) must not be below from (\(from))") }
      // Counted in Double first: (to - from) / step can be far past Int.max, or infinite.
      let steps = ((to - from) / step + 1e-9).rounded(.down)
      guard steps < Double(maximumPoints) else {
        throw stepValue.error("the range has \(WorkEstimate.scientific(steps + 1)) values; at most \(maximumPoints)")
      }
      let count = Int(steps) + 1
      return (0..<count).map { index in
        let number = from + Double(index) * step
        return number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
      }
    }
    var list: [String] = []
    for (index, node) in try value.sequence().enumerated() {
      list.append(try YAMLValue(node: node, path: "\(value.path)[\(index)]", source: value.source).scalarText())
    }
    guard !list.isEmpty else { throw value.error("expected at least one value") }
    return list
  }
}
