import SimulationEngine
import WidgetModel
import Yams

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A sweep read from its file: the base scenario tree, the grid, and every point's configuration, all
/// checked before anything runs.
public struct LoadedSweep: Sendable {
  public let file: String
  /// The sweep file's text (and the base scenario's, when separate), for the manifest and resume checks.
  public let text: String
  public let specification: SweepSpecification
  public let points: [SweepPoint]
  /// One configuration per point, in point order.
  public let configurations: [ScenarioConfiguration]
  /// The scenario name (from the base).
  public var name: String { configurations[0].name }
  /// The work of every point's replications together, in events (see ``WorkEstimate``): measured once, here
  /// (each point's estimate simulates a device for a day or two).
  public let events: Double

  /// A loaded sweep; `events`: its work, each point's as it loaded.
  init(
    file: String, text: String, specification: SweepSpecification, points: [SweepPoint],
    configurations: [ScenarioConfiguration], events: Double
  ) {
    self.file = file
    self.text = text
    self.specification = specification
    self.points = points
    self.configurations = configurations
    self.events = events
  }
}

/// An error in one point of a sweep: the point, its settings, and the scenario error.
public struct SweepError: Error, CustomStringConvertible, Sendable {
  public let point: SweepPoint
  public let error: ScenarioError
  public var description: String { "point \(point.index) (\(point.described)): \(error)" }
}

public enum SweepLoader {
  /// Whether `file` (once links and `..` are resolved) lies in `directory` or below it; a file that does not
  /// exist is judged by its written path.
  static func isInside(_ file: String, _ directory: String) -> Bool {
    guard let folder = realpath(directory, nil) else { return false }
    defer { free(folder) }
    let root = String(cString: folder)
    guard let resolved = realpath(file, nil) else {
      // Not there (the read will say so): refuse what climbs out by name.
      var depth = 0
      for part in file.dropFirst(directory.count).split(separator: "/") {
        depth += part == ".." ? -1 : (part == "." ? 0 : 1)
        if depth < 0 { return false }
      }
      return !file.hasPrefix("/") || file.hasPrefix(root + "/")
    }
    defer { free(resolved) }
    return String(cString: resolved).hasPrefix(root == "/" ? "/" : root + "/")
  }

  /// Loads a sweep: a scenario with a `sweep` section, or a file with `base: PATH` (relative to the file) and
  /// `sweep`. `overrides` (`--set` and shorthands) apply to every point before its own settings.
  public static func load(
    path: String, overrides: [ScenarioOverride] = [], limits: ScenarioLimits = .standard
  ) throws -> LoadedSweep {
    let (root, cleaned) = try ScenarioLoader.parse(text: try ScenarioLoader.readFile(path), file: path)
    return try load(root: root, text: cleaned, path: path, overrides: overrides, limits: limits)
  }

  /// Loads a sweep from the parsed tree of the file at `path` (`text`: the text it was parsed from).
  static func load(
    root: Node, text cleaned: String, path: String, overrides: [ScenarioOverride], limits: ScenarioLimits
  ) throws -> LoadedSweep {
    guard case .mapping(let mapping) = root else {
      throw ScenarioError(
        file: path, line: nil, column: nil, keyPath: "", message: "expected a mapping with a 'sweep' section")
    }
    let sweepNode = try sweepSection(of: mapping, path: path)
    let specification = try SweepSpecification.decode(
      YAMLValue(node: sweepNode, path: "sweep", source: ScenarioSource(file: path, limits: limits)))
    let base = try baseScenario(of: mapping, text: cleaned, path: path, limits: limits)
    let points = specification.points
    let (configurations, events) = try pointConfigurations(
      points, specification: specification, base: base, overrides: overrides, path: path, limits: limits)
    let sweep = LoadedSweep(
      file: path, text: base.file == path ? cleaned : cleaned + "\n---\n" + base.text, specification: specification,
      points: points, configurations: configurations, events: events)
    guard limits.allowLarge || events <= ScenarioLimits.standardEvents else {
      throw ScenarioError(
        file: path, line: sweepNode.mark?.line, column: sweepNode.mark?.column, keyPath: "sweep",
        message: "the sweep is too large: \(points.count) points come to \(WorkEstimate.scientific(events)) "
          + "events, above the limit of \(WorkEstimate.scientific(ScenarioLimits.standardEvents)); "
          + "pass --allow-large to run it anyway")
    }
    return sweep
  }

  /// The file's `sweep` section; its absence is reported at a key that looks like a misspelt `sweep`, if one
  /// does.
  static func sweepSection(of mapping: Node.Mapping, path: String) throws(ScenarioError) -> Node {
    guard let sweepNode = mapping["sweep"] else {
      for (keyNode, _) in mapping {
        guard let key = keyNode.string, let near = DidYouMean.suggestion(for: key, among: ["sweep"]) else { continue }
        throw ScenarioError(
          file: path, line: keyNode.mark?.line, column: keyNode.mark?.column, keyPath: key,
          message: "unknown key '\(key)' (did you mean '\(near)'?); a sweep file needs a 'sweep' section")
      }
      throw ScenarioError(
        file: path, line: 1, column: 1, keyPath: "sweep",
        message: "missing required key 'sweep' (points, parameters, lockstep, exclude, replications, objective, select)"
      )
    }
    return sweepNode
  }

  /// The scenario every point varies, with its file and text: the sweep file's other keys, or the file its
  /// `base` names (relative to the sweep file, in its folder or below unless the limits allow otherwise).
  static func baseScenario(of mapping: Node.Mapping, text cleaned: String, path: String, limits: ScenarioLimits)
    throws(ScenarioError) -> (root: Node, file: String, text: String)
  {
    let base = Node.mapping(
      Node.Mapping(
        mapping.filter { $0.key.string != "sweep" }.map { ($0.key, $0.value) }, mapping.tag, mapping.style, mapping.mark
      ))
    guard let baseNode = mapping["base"] else { return (base, path, cleaned) }
    let relative = try YAMLValue(node: baseNode, path: "base", source: ScenarioSource(file: path)).string()
    guard mapping.count == 2 else {
      throw ScenarioError(
        file: path, line: baseNode.mark?.line, column: baseNode.mark?.column, keyPath: "base",
        message: "a sweep file with 'base' holds only 'base' and 'sweep'; put scenario keys in the base scenario")
    }
    let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
    let baseFile = relative.hasPrefix("/") ? relative : "\(directory)/\(relative)"
    if !limits.allowOutsideBase && !SweepLoader.isInside(baseFile, directory) {
      throw ScenarioError(
        file: path, line: baseNode.mark?.line, column: baseNode.mark?.column, keyPath: "base",
        message: "the base scenario must be in the sweep file's folder or below it, got \(baseNode.string ?? "")"
          + " (pass --allow-outside-base to allow it)")
    }
    let rawBase: String
    do {
      rawBase = try ScenarioLoader.readFile(baseFile)
    } catch {
      // Name the sweep file's `base` key: the missing file is not where the mistake is.
      throw ScenarioError(
        file: path, line: baseNode.mark?.line, column: baseNode.mark?.column, keyPath: "base",
        message: "\(baseFile): \(error.message)")
    }
    let (parsed, read) = try ScenarioLoader.parse(text: rawBase, file: baseFile)
    return (parsed, baseFile, read)
  }

  /// Each point's configuration, in point order, and the work of all their replications: a point's settings
  /// apply after `overrides`, and the sweep's replications unless `overrides` set them.
  static func pointConfigurations(
    _ points: [SweepPoint], specification: SweepSpecification, base: (root: Node, file: String, text: String),
    overrides: [ScenarioOverride], path: String, limits: ScenarioLimits
  ) throws -> ([ScenarioConfiguration], Double) {
    var configurations: [ScenarioConfiguration] = []
    var events = 0.0
    for point in points {
      var settings = overrides
      for assignment in point.assignments {
        do {
          settings.append(try ScenarioOverride("\(assignment.key)=\(assignment.value)"))
        } catch {
          throw pointError(error, point: point, specification: specification, file: path)
        }
      }
      do throws(ScenarioError) {
        let loaded = try ScenarioLoader.load(
          root: base.root, text: base.text, file: base.file, overrides: settings, limits: limits)
        var configuration = loaded.configuration
        if let replications = specification.replications,
          !overrides.contains(where: { $0.argument.hasPrefix("replications=") })
        {
          configuration.replications = replications
        }
        configurations.append(configuration)
        events += loaded.work.with(replications: configuration.replications).events
      } catch {
        throw pointError(error, point: point, specification: specification, file: path)
      }
    }
    return (configurations, events)
  }

  /// An error in one point. When a swept value caused it (a key that does not exist, a value out of range),
  /// it is reported at that key in the sweep file; otherwise (the base scenario) as the point's error.
  static func pointError(
    _ error: ScenarioError, point: SweepPoint, specification: SweepSpecification, file: String
  ) -> any Error {
    guard let argument = error.override,
      let assignment = point.assignments.first(where: { argument == "\($0.key)=\($0.value)" }),
      let place = specification.places[assignment.key]
    else { return SweepError(point: point, error: error) }
    let detail = error.keyPath.isEmpty ? error.message : "\(error.keyPath): \(error.message)"
    return ScenarioError(
      file: file, line: place.line, column: place.column, keyPath: place.keyPath,
      message: "\(assignment.value) at point \(point.index): \(detail)")
  }
}
