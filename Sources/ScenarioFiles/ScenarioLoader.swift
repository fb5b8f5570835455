import WidgetModel
import Yams

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads scenario files into configurations: YAML through Yams, then every key checked with its position.
public enum ScenarioLoader {
  /// The name errors use for the embedded default scenario.
  public static let defaultScenarioName = "<default scenario: Scenarios/quickstart.yaml>"

  /// Loads the scenario at `path`, applying `overrides` in order.
  public static func load(
    path: String, overrides: [ScenarioOverride] = [], limits: ScenarioLimits = .standard
  ) throws(ScenarioError) -> LoadedScenario {
    let text = try readFile(path)
    return try load(text: text, file: path, overrides: overrides, limits: limits)
  }

  /// Loads the embedded default scenario (a copy of Scenarios/quickstart.yaml).
  public static func loadDefault(
    overrides: [ScenarioOverride] = [], limits: ScenarioLimits = .standard
  ) throws(ScenarioError) -> LoadedScenario {
    try load(text: DefaultScenario.yaml, file: defaultScenarioName, overrides: overrides, limits: limits)
  }

  /// Loads a scenario from text; `file` names it in errors and gives the default scenario name.
  public static func load(
    text: String, file: String, overrides: [ScenarioOverride] = [], limits: ScenarioLimits = .standard
  ) throws(ScenarioError) -> LoadedScenario {
    let (root, text) = try parse(text: text, file: file)
    return try load(root: root, text: text, file: file, overrides: overrides, limits: limits)
  }

  /// Loads the file at `path`, a scenario or a sweep (a file with a top-level `sweep` section), reading and
  /// parsing it once.
  public static func loadScenarioOrSweep(
    path: String, overrides: [ScenarioOverride] = [], limits: ScenarioLimits = .standard
  ) throws -> ScenarioOrSweep {
    let (root, text) = try parse(text: try readFile(path), file: path)
    if root.mapping?["sweep"] != nil {
      return .sweep(try SweepLoader.load(root: root, text: text, path: path, overrides: overrides, limits: limits))
    }
    return .scenario(try load(root: root, text: text, file: path, overrides: overrides, limits: limits))
  }

  /// Parses scenario text into its YAML tree (dropping a UTF-8 byte order mark), and the text it read.
  static func parse(text: String, file: String) throws(ScenarioError) -> (Node, String) {
    // A UTF-8 byte order mark is legal at the start of a file; YAML parsers differ on it.
    let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
    try YAMLAliasLimit.check(text, file: file)
    try YAMLComplexKeys.check(text, file: file)
    do {
      guard let parsed = try Yams.compose(yaml: text) else {
        throw ScenarioError(
          file: file, line: nil, column: nil, keyPath: "",
          message: "the file is empty; expected a scenario mapping with at least 'widgets'")
      }
      try YAMLTags.check(parsed, file: file)
      return (parsed, text)
    } catch let error as ScenarioError {
      throw error
    } catch let error as YamlError {
      throw yamlError(error, file: file)
    } catch {
      throw ScenarioError(file: file, line: nil, column: nil, keyPath: "", message: "cannot read YAML: \(error)")
    }
  }

  /// Decodes a parsed scenario tree after applying `overrides` in order.
  static func load(
    root: Node, text: String, file: String, overrides: [ScenarioOverride], limits: ScenarioLimits
  ) throws(ScenarioError) -> LoadedScenario {
    var root = root
    var applied: [(path: String, argument: String, option: String)] = []
    for override in overrides {
      let (updated, path, created) = try override.apply(to: root)
      root = updated
      applied.append((created ?? path, override.argument, override.option))
    }
    let source = ScenarioSource(file: file, overrides: applied, limits: limits)
    let (configuration, work) = try ScenarioDecoder.decode(
      YAMLValue(node: root, path: "", source: source), defaultName: defaultName(for: file))
    var loaded = LoadedScenario(
      configuration: configuration, file: file, text: text, warnings: source.warnings.withLock { $0 })
    loaded.work = work
    return loaded
  }

  static func defaultName(for file: String) -> String {
    if file == defaultScenarioName { return "quickstart" }
    let base = file.split(separator: "/").last.map(String.init) ?? file
    for suffix in [".yaml", ".yml"] where base.hasSuffix(suffix) {
      return String(base.dropLast(suffix.count))
    }
    return base
  }

  static func yamlError(_ error: YamlError, file: String) -> ScenarioError {
    switch error {
    case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
      .composer(let context, let problem, let mark, _):
      let detail = context.map { "\(problem) \($0.text)" } ?? problem
      return ScenarioError(
        file: file, line: mark.line, column: mark.column, keyPath: "", message: "invalid YAML: \(detail)")
    case .duplicatedKeysInMapping(let duplicates, let context):
      return ScenarioError(
        file: file, line: context.mark.line, column: context.mark.column, keyPath: "",
        message: "duplicate key \(duplicates.map { "'\($0)'" }.joined(separator: ", ")) in one mapping")
    case .reader(let problem, let offset, _, _):
      return ScenarioError(
        file: file, line: nil, column: nil, keyPath: "",
        message: "not readable as UTF-8 text: \(problem)\(offset.map { " at byte \($0)" } ?? "")")
    default:
      return ScenarioError(file: file, line: nil, column: nil, keyPath: "", message: "invalid YAML: \(error)")
    }
  }

  /// The largest scenario or sweep file read: real ones are a few KB, so anything near this is a mistake
  /// (a log, a dataset) and is refused before it is read into memory.
  public static let maximumFileBytes = 4 << 20

  /// Reads a whole file as UTF-8, refusing files over ``maximumFileBytes``; errors name the file.
  static func readFile(_ path: String) throws(ScenarioError) -> String {
    func fail(_ message: String) -> ScenarioError {
      ScenarioError(file: path, line: nil, column: nil, keyPath: "", message: message)
    }
    func tooLarge(_ size: String) -> ScenarioError {
      fail("the file is \(size), above the limit of \(maximumFileBytes >> 20) MiB for a scenario file")
    }
    guard let handle = fopen(path, "rb") else {
      throw fail("cannot open: \(String(cString: strerror(errno)))")
    }
    defer { fclose(handle) }
    var status = stat()
    if fstat(fileno(handle), &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
      throw fail("is a folder, not a scenario file")
    }
    if fstat(fileno(handle), &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size > maximumFileBytes {
      throw tooLarge("\(status.st_size >> 20) MiB")
    }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = fread(&buffer, 1, buffer.count, handle)
      if count > 0 { bytes.append(contentsOf: buffer[0..<count]) }
      // Pipes and devices have no size up front: stop reading once past the limit.
      if bytes.count > maximumFileBytes { throw tooLarge("more than \(maximumFileBytes >> 20) MiB") }
      if count < buffer.count {
        if ferror(handle) != 0 { throw fail("cannot read: \(String(cString: strerror(errno)))") }
        break
      }
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw fail("not a text file: it is not valid UTF-8")
    }
    if text.contains("\0") { throw fail("not a text file: it contains NUL bytes") }
    return text
  }
}

/// What a file holds: a scenario, or a sweep of one.
public enum ScenarioOrSweep: Sendable {
  case scenario(LoadedScenario)
  case sweep(LoadedSweep)
}

/// A scenario read from a file, with what reports need to identify it.
public struct LoadedScenario: Sendable {
  public let configuration: ScenarioConfiguration
  /// The file it came from (or the default scenario's name).
  public let file: String
  /// Its text, for hashing into the manifest.
  public let text: String
  /// Values that are allowed but probably not meant (e.g. entries under 5 minutes apart), each with its
  /// position; `validate` prints them.
  public var warnings: [ScenarioError] = []
  /// Its work, as the limit checked it when it loaded (nil for one made in code: ``work`` estimates it then).
  var checkedWork: WorkEstimate?

  /// The configuration's work (see ``WorkEstimate``), estimated once.
  public internal(set) var work: WorkEstimate {
    get { checkedWork ?? WorkEstimate(configuration) }
    set { checkedWork = newValue }
  }

  public init(configuration: ScenarioConfiguration, file: String, text: String, warnings: [ScenarioError] = []) {
    self.configuration = configuration
    self.file = file
    self.text = text
    self.warnings = warnings
  }
}
