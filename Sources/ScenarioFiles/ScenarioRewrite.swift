import Yams

/// A scenario file rewritten with `--set` overrides applied, as YAML text that loads back to the same
/// configuration (`widgetsim calibrate`'s fitted.yaml). The base's comments do not survive (the YAML tree
/// holds none); each overridden key can carry a comment of its own at the end of its line.
public enum ScenarioRewrite {
  /// The scenario at `path` with `overrides` applied in order; `comments` (a key path such as
  /// `user.app_opens.per_day`, and its text) go at the end of the key's line. `header` lines open the file
  /// as comments.
  public static func text(
    path: String, overrides: [ScenarioOverride], comments: [(path: String, text: String)], header: [String]
  ) throws(ScenarioError) -> String {
    let (parsed, _) = try ScenarioLoader.parse(text: try ScenarioLoader.readFile(path), file: path)
    var root = parsed
    for override in overrides { root = try override.apply(to: root).node }
    let yaml: String
    let tree: Node?
    do {
      yaml = try Yams.serialize(node: root, width: -1, sortKeys: false)
      tree = try Yams.compose(yaml: yaml)
    } catch {
      throw ScenarioError(
        file: path, line: nil, column: nil, keyPath: "", message: "cannot write the scenario: \(error)")
    }
    var lines = yaml.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    for comment in comments {
      guard let tree, let line = keyLine(tree, keys(comment.path)[...]),
        lines.indices.contains(line - 1)
      else { continue }
      lines[line - 1] += "  # " + comment.text.replacingNewlines()
    }
    return header.map { "# " + $0.replacingNewlines() + "\n" }.joined() + lines.joined(separator: "\n")
  }

  /// The keys of an override's path: `fleet.vary[user.sleep.from]` is `fleet`, `vary`, `user.sleep.from`.
  static func keys(_ path: String) -> [String] {
    ScenarioOverride.parts(of: path).flatMap { part -> [String] in
      guard let open = part.firstIndex(of: "["), part.hasSuffix("]") else { return [String(part)] }
      return [String(part[..<open]), String(part[part.index(after: open)..<part.index(before: part.endIndex)])]
    }
  }

  /// The 1-based line of the key at `path` in `node` (mappings only).
  static func keyLine(_ node: Node, _ path: ArraySlice<String>) -> Int? {
    guard let first = path.first, let mapping = node.mapping else { return nil }
    for (key, value) in mapping where key.string == first {
      return path.count == 1 ? key.mark?.line : keyLine(value, path.dropFirst())
    }
    return nil
  }
}

extension String {
  fileprivate func replacingNewlines() -> String {
    String(map { $0 == "\n" || $0 == "\r" ? " " : $0 })
  }
}
