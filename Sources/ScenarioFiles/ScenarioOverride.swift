import SimulationEngine
import Yams

/// One `--set KEY=VALUE` from the command line: a key path into the scenario and a YAML value.
///
/// Key paths are dot-separated keys; list elements are chosen by id (`widgets[headlines]`) or by
/// 0-based index (`widgets[0]`), and a mapping's entry by its whole key, dots and all
/// (`fleet.vary[user.sleep.from]`: dots inside brackets do not split the path). The value is parsed as
/// YAML, so `30m`, `true`, `[1, 2]` and `{dist: exponential, mean: 2m}` all work. A key that does not exist is reported by the decoder like an
/// unknown key in the file, naming the override.
public struct ScenarioOverride: Sendable, Equatable {
  public let argument: String
  /// How the command line wrote it, for messages that say which option set a value: `--set KEY=VALUE`, or
  /// a shorthand as given (`--devices 5000`).
  public internal(set) var option: String
  let segments: [Segment]
  let valueText: String

  enum Segment: Equatable {
    case key(String)
    case element(String)
  }

  /// Parses `KEY=VALUE`.
  public init(_ argument: String) throws(ScenarioError) {
    self.argument = argument
    option = "--set \(argument)"
    func fail(_ message: String) -> ScenarioError {
      ScenarioError(file: "<command line>", line: nil, column: nil, keyPath: "", message: message, override: argument)
    }
    guard let equals = argument.firstIndex(of: "=") else {
      throw fail("expected KEY=VALUE, e.g. --set budget.per_day.max=50")
    }
    let path = String(argument[..<equals]).trimmingWhitespace
    valueText = String(argument[argument.index(after: equals)...])
    guard !valueText.trimmingWhitespace.isEmpty else { throw fail("no value after '='") }
    var segments: [Segment] = []
    for part in ScenarioOverride.parts(of: path) {
      var rest = Substring(part)
      let name = rest.prefix { $0 != "[" }
      rest = rest.dropFirst(name.count)
      guard !name.isEmpty else { throw fail("empty key in '\(path)'") }
      segments.append(.key(String(name)))
      while rest.first == "[" {
        guard let close = rest.firstIndex(of: "]") else { throw fail("missing ']' in '\(path)'") }
        let selector = rest[rest.index(after: rest.startIndex)..<close]
        guard !selector.isEmpty else { throw fail("empty [] in '\(path)'") }
        segments.append(.element(String(selector)))
        rest = rest[rest.index(after: close)...]
      }
      guard rest.isEmpty else { throw fail("unexpected '\(rest)' in '\(path)'") }
    }
    self.segments = segments
  }

  /// The path split at the dots outside brackets.
  static func parts(of path: String) -> [Substring] {
    var parts: [Substring] = []
    var start = path.startIndex
    var depth = 0
    for index in path.indices {
      switch path[index] {
      case "[": depth += 1
      case "]": depth = Swift.max(0, depth - 1)
      case "." where depth == 0:
        parts.append(path[start..<index])
        start = path.index(after: index)
      default: break
      }
    }
    parts.append(path[start...])
    return parts
  }

  /// Applies the override to `root`; returns the new tree, the normalised key path it set, and the
  /// shallowest key path it had to create (nil if every key existed), so errors there name the override.
  func apply(to root: Node) throws(ScenarioError) -> (node: Node, path: String, created: String?) {
    let value: Node
    do {
      guard let parsed = try Yams.compose(yaml: valueText) else { throw fail("", "no value after '='") }
      try YAMLTags.check(parsed, file: "--set \(argument)")
      value = parsed
    } catch let error as ScenarioError {
      throw error
    } catch {
      throw fail("", "the value is not valid YAML: \(error)")
    }
    var path = ""
    var created: String?
    let updated = try set(value, in: root, at: segments[...], path: &path, created: &created)
    return (updated, path, created)
  }

  private func fail(_ path: String, _ message: String) -> ScenarioError {
    ScenarioError(file: "<command line>", line: nil, column: nil, keyPath: path, message: message, override: argument)
  }

  private func set(
    _ value: Node, in node: Node, at segments: ArraySlice<Segment>, path: inout String, created: inout String?
  ) throws(ScenarioError) -> Node {
    guard let segment = segments.first else { return value }
    let rest = segments.dropFirst()
    switch segment {
    case .key(let key):
      guard case .mapping(let mapping) = node else {
        throw fail(path.isEmpty ? key : "\(path).\(key)", "cannot set '\(key)': the enclosing value is not a mapping")
      }
      return try set(value, in: mapping, key: key, at: rest, path: &path, created: &created)
    case .element(let selector):
      // A mapping's entry by its whole key (fleet.vary[user.sleep.from]), as a key: the path is written as the
      // decoder writes key paths, so its errors there name the override.
      if case .mapping(let mapping) = node {
        return try set(value, in: mapping, key: selector, at: rest, path: &path, created: &created)
      }
      guard case .sequence(var sequence) = node else {
        throw fail(path, "cannot select [\(selector)]: '\(path)' is neither a list nor a mapping")
      }
      let position: Int
      if let index = Int(selector) {
        guard sequence.indices.contains(index) else {
          throw fail(path, "no element [\(index)]: the list has \(sequence.count)")
        }
        position = index
      } else {
        let ids = sequence.compactMap { $0.mapping?["id"]?.string }
        guard let index = sequence.firstIndex(where: { $0.mapping?["id"]?.string == selector }) else {
          throw fail(
            path,
            "no element with id '\(selector)'\(DidYouMean.hint(for: selector, among: ids)); ids: \(ids.joined(separator: ", "))"
          )
        }
        position = index
      }
      path = ScenarioPath.widgetPath(node: sequence[position], index: position, base: path)
      sequence[position] = try set(value, in: sequence[position], at: rest, path: &path, created: &created)
      return .sequence(sequence)
    }
  }

  /// Sets `value` at `rest` below the entry `key` of `mapping`, creating the entry when missing.
  private func set(
    _ value: Node, in mapping: Node.Mapping, key: String, at rest: ArraySlice<Segment>, path: inout String,
    created: inout String?
  ) throws(ScenarioError) -> Node {
    var mapping = mapping
    path = path.isEmpty ? key : "\(path).\(key)"
    if let index = mapping.firstIndex(where: { $0.key.string == key }) {
      let child = try set(value, in: mapping[index].value, at: rest, path: &path, created: &created)
      mapping[index] = (mapping[index].key, child)
      return .mapping(mapping)
    }
    if created == nil { created = path }
    let child = try set(value, in: Node([(Node, Node)]()), at: rest, path: &path, created: &created)
    var pairs = mapping.map { ($0.key, $0.value) }
    pairs.append((Node(key), child))
    return .mapping(Node.Mapping(pairs, mapping.tag, mapping.style, mapping.mark))
  }
}

extension ScenarioOverride {
  /// The overrides of a command line: its `--set` arguments in order, then the shorthands (`--seed`,
  /// `--replications`, `--days`, `--warmup-days`, `--devices`) as the keys they set.
  public static func commandLine(
    _ arguments: [String], seed: UInt64?, replications: Int?, days: Int?, warmupDays: Int?, devices: Int?
  ) throws(ScenarioError) -> [ScenarioOverride] {
    var result: [ScenarioOverride] = []
    for argument in arguments { result.append(try ScenarioOverride(argument)) }
    let shorthands: [(key: String, option: String, value: String?)] = [
      ("seed", "--seed", seed.map { "\($0)" }), ("replications", "--replications", replications.map { "\($0)" }),
      ("days", "--days", days.map { "\($0)" }), ("warmup_days", "--warmup-days", warmupDays.map { "\($0)" }),
      ("fleet.devices", "--devices", devices.map { "\($0)" }),
    ]
    for case (let key, let option, let value?) in shorthands {
      var override = try ScenarioOverride("\(key)=\(value)")
      override.option = "\(option) \(value)"
      result.append(override)
    }
    return result
  }
}
