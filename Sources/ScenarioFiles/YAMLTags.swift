import Yams

/// Explicit YAML tags in a scenario: only the core schema's own (`!!str`, `!!int`, `!!float`, `!!bool`,
/// `!!null`, `!!map`, `!!seq`) mean anything here. Others (`!!binary`, `!!set`, `!local`) would be read as
/// plain text and hide a mistake, so they are refused with their position.
enum YAMLTags {
  static let allowed: Set<String> = Set(
    ([.implicit, .nonSpecific, .str, .int, .float, .bool, .null, .map, .seq] as [Tag.Name]).map(\.rawValue))

  /// Walks the whole tree (every node once) and throws at the first node with another tag.
  static func check(_ root: Node, file: String) throws(ScenarioError) {
    var stack = [root]
    while let node = stack.popLast() {
      let tag: Tag
      switch node {
      case .scalar(let scalar): tag = scalar.tag
      case .mapping(let mapping):
        tag = mapping.tag
        for (key, value) in mapping {
          stack.append(key)
          stack.append(value)
        }
      case .sequence(let sequence):
        tag = sequence.tag
        stack.append(contentsOf: sequence)
      case .alias: continue
      }
      guard allowed.contains(tag.rawValue) else {
        let mark = node.mark
        throw ScenarioError(
          file: file, line: mark?.line, column: mark?.column, keyPath: "",
          message: "YAML tag '\(tag.rawValue)' is not supported: scenarios use plain values (remove the tag)")
      }
    }
  }
}
