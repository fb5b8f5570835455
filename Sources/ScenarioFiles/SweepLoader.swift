import WidgetModel
import Yams

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
}

/// An error in one point of a sweep: the point, its settings, and the scenario error.
public struct SweepError: Error, CustomStringConvertible, Sendable {
  public let point: SweepPoint
  public let error: ScenarioError
  public var description: String { "point \(point.index) (\(point.label)): \(error)" }
}

public enum SweepLoader {
  /// Loads a sweep: a scenario with a `sweep` section, or a file with `base: PATH` (relative to the file) and
  /// `sweep`. `overrides` (`--set` and shorthands) apply to every point before its own settings.
  public static func load(path: String, overrides: [ScenarioOverride] = []) throws -> LoadedSweep {
    let text = try ScenarioLoader.readFile(path)
    let (root, cleaned) = try ScenarioLoader.parse(text: text, file: path)
    guard case .mapping(let mapping) = root else {
      throw ScenarioError(
        file: path, line: nil, column: nil, keyPath: "", message: "expected a mapping with a 'sweep' section")
    }
    guard let sweepNode = mapping["sweep"] else {
      throw ScenarioError(
        file: path, line: 1, column: 1, keyPath: "sweep",
        message: "missing required key 'sweep' (parameters, lockstep, exclude, replications)")
    }
    let specification = try SweepSpecification.decode(
      YAMLValue(node: sweepNode, path: "sweep", source: ScenarioSource(file: path)))
    var base = Node.mapping(
      Node.Mapping(
        mapping.filter { $0.key.string != "sweep" }.map { ($0.key, $0.value) }, mapping.tag, mapping.style, mapping.mark
      ))
    var baseFile = path
    var baseText = cleaned
    if let baseNode = mapping["base"] {
      let relative = try YAMLValue(node: baseNode, path: "base", source: ScenarioSource(file: path)).string()
      guard mapping.count == 2 else {
        throw ScenarioError(
          file: path, line: baseNode.mark?.line, column: baseNode.mark?.column, keyPath: "base",
          message: "a sweep file with 'base' holds only 'base' and 'sweep'; put scenario keys in the base scenario")
      }
      let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
      baseFile = relative.hasPrefix("/") ? relative : "\(directory)/\(relative)"
      let (parsed, read) = try ScenarioLoader.parse(text: try ScenarioLoader.readFile(baseFile), file: baseFile)
      base = parsed
      baseText = read
    }
    var configurations: [ScenarioConfiguration] = []
    let points = specification.points
    for point in points {
      var settings = overrides
      for assignment in point.assignments {
        do {
          settings.append(try ScenarioOverride("\(assignment.key)=\(assignment.value)"))
        } catch {
          throw SweepError(point: point, error: error)
        }
      }
      do throws(ScenarioError) {
        var configuration = try ScenarioLoader.load(root: base, text: baseText, file: baseFile, overrides: settings)
          .configuration
        if let replications = specification.replications,
          !overrides.contains(where: { $0.argument.hasPrefix("replications=") })
        {
          configuration.replications = replications
        }
        configurations.append(configuration)
      } catch {
        throw SweepError(point: point, error: error)
      }
    }
    return LoadedSweep(
      file: path, text: baseFile == path ? cleaned : cleaned + "\n---\n" + baseText, specification: specification,
      points: points, configurations: configurations)
  }
}
