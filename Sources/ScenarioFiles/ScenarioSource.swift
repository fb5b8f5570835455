import Synchronization

/// Where scenario values come from: the file's name, which key paths `--set` overrode, and the size limits.
final class ScenarioSource: Sendable {
  let file: String
  /// What decoding noticed that is allowed but probably unintended (shown by `validate`).
  let warnings = Mutex<[ScenarioError]>([])
  /// Normalised key path -> the `--set` argument that set it, and the option as the command line wrote it
  /// (`--set KEY=VALUE`, or a shorthand such as `--devices 5000`).
  let overrides: [(path: String, argument: String, option: String)]
  /// The size limits values are checked against.
  let limits: ScenarioLimits

  init(
    file: String, overrides: [(path: String, argument: String, option: String)] = [],
    limits: ScenarioLimits = .standard
  ) {
    self.file = file
    self.overrides = overrides
    self.limits = limits
  }

  /// The `--set` argument that produced the value at `path`, if one did (it or an enclosing key).
  func override(for path: String) -> String? {
    setting(path)?.argument
  }

  /// The option, as the command line wrote it, that produced the value at `path`, if one did.
  func option(for path: String) -> String? {
    setting(path)?.option
  }

  private func setting(_ path: String) -> (path: String, argument: String, option: String)? {
    overrides.last { path == $0.path || path.hasPrefix($0.path + ".") || path.hasPrefix($0.path + "[") }
  }
}
