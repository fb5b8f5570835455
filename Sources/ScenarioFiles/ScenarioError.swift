/// A scenario that cannot be run: where the problem is and what was expected there.
///
/// Printed as `file:line:column: key.path: message`, or, for a value given with `--set`,
/// `--set key=value: key.path: message`, so editors and CI logs can jump to it.
public struct ScenarioError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The scenario file (as given), or `<default scenario>`.
  public let file: String
  /// 1-based line and column of the offending node, when known.
  public let line: Int?
  public let column: Int?
  /// Where in the scenario, e.g. `widgets[headlines].timeline.after` (empty for the whole document).
  public let keyPath: String
  /// What is wrong and what was expected.
  public let message: String
  /// The `--set` argument the value came from, if it came from one.
  public let override: String?

  public init(file: String, line: Int?, column: Int?, keyPath: String, message: String, override: String? = nil) {
    self.file = file
    self.line = line
    self.column = column
    self.keyPath = keyPath
    self.message = message
    self.override = override
  }

  public var description: String {
    let place: String
    if let override {
      place = "--set \(override)"
    } else if let line, let column {
      place = "\(file):\(line):\(column)"
    } else {
      place = file
    }
    return keyPath.isEmpty ? "\(place): \(message)" : "\(place): \(keyPath): \(message)"
  }
}
