import SimulationEngine
import Yams

/// Reads the keys of one mapping, remembering which it asked for, so that ``finish()`` can reject the
/// rest as unknown keys with a did-you-mean hint.
struct MappingReader {
  let value: YAMLValue
  private let entries: [(key: String, keyNode: Node, value: Node)]
  private var known: [String] = []

  init(mapping: Node.Mapping, value: YAMLValue) throws(ScenarioError) {
    self.value = value
    var entries: [(key: String, keyNode: Node, value: Node)] = []
    for (keyNode, valueNode) in mapping {
      guard case .scalar(let scalar) = keyNode else {
        throw YAMLValue(node: keyNode, path: value.path, source: value.source).error("keys must be plain names")
      }
      entries.append((scalar.string, keyNode, valueNode))
    }
    self.entries = entries
  }

  private func childPath(_ key: String) -> String {
    value.path.isEmpty ? key : "\(value.path).\(key)"
  }

  /// The value under `key`, if present (an explicit null counts as absent).
  mutating func optional(_ key: String) -> YAMLValue? {
    known.append(key)
    guard let entry = entries.first(where: { $0.key == key }) else { return nil }
    if case .scalar(let scalar) = entry.value, scalar.tag == .implicit, scalar.style == .plain,
      ["", "~", "null"].contains(scalar.string)
    {
      return nil
    }
    return YAMLValue(node: entry.value, path: childPath(key), source: value.source)
  }

  /// The value under `key`; its absence is an error naming the key.
  mutating func required(_ key: String, _ expectation: String) throws(ScenarioError) -> YAMLValue {
    guard let found = optional(key) else {
      // A misspelt key is the likeliest reason a required one is missing: report that instead.
      for entry in entries
      where !known.contains(entry.key) && DidYouMean.suggestion(for: entry.key, among: [key]) != nil {
        let keyValue = YAMLValue(node: entry.keyNode, path: childPath(entry.key), source: value.source)
        throw keyValue.error("unknown key '\(entry.key)' (did you mean '\(key)'?)")
      }
      throw ScenarioError(
        file: value.source.file, line: value.node.mark?.line, column: value.node.mark?.column, keyPath: childPath(key),
        message: "missing required key '\(key)' (\(expectation))", override: value.source.override(for: childPath(key)))
    }
    return found
  }

  /// Whether the mapping has `key` at all.
  func contains(_ key: String) -> Bool {
    entries.contains { $0.key == key }
  }

  /// Rejects keys that were never asked for.
  func finish() throws(ScenarioError) {
    for entry in entries where !known.contains(entry.key) {
      let keyValue = YAMLValue(node: entry.keyNode, path: childPath(entry.key), source: value.source)
      let expected = known.map { "'\($0)'" }.joined(separator: ", ")
      throw keyValue.error(
        "unknown key '\(entry.key)'\(DidYouMean.hint(for: entry.key, among: known)); expected one of \(expected)")
    }
  }
}
