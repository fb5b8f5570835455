import WidgetModel

/// What `widgetsim validate` says of a file it checked without running it: a scenario's surfaces, instances,
/// days, replications and work, or a sweep's points, tasks and events (every point checked).
public struct ScenarioValidation: Sendable {
  /// `FILE: ok (...)`.
  public let line: String
  /// Values that are allowed but probably not meant, each with its position (a scenario's; a sweep gives none),
  /// to say before ``line``.
  public let warnings: [ScenarioError]

  /// Loads `file`, a scenario or a sweep, with `arguments`; throws what is wrong with it.
  public init(_ file: String, arguments: ScenarioArguments) throws {
    switch try arguments.loadScenarioOrSweep(file) {
    case .scenario(let loaded):
      line = "\(file): ok (\(ScenarioValidation.contents(loaded)))"
      warnings = loaded.warnings
    case .sweep(let sweep):
      let tasks = sweep.configurations.reduce(0) { $0 + $1.replications }
      line =
        "\(file): ok (sweep: \(sweep.points.count) points, \(tasks) tasks, "
        + "\(WorkEstimate.scientific(sweep.events)) events, every point checked)"
      warnings = []
    }
  }

  /// What is wrong with `widgetsim validate`'s files before any is read, or nil: there must be one at least.
  public static func problem(files: [String]) -> String? {
    files.isEmpty ? "give at least one scenario file" : nil
  }

  /// `widgetsim validate`: checks each file, saying its line (``line``) through `say`, or its warnings and
  /// then its line, or what is wrong with it through `warn` (one message each, without a final newline).
  /// Returns whether every file is valid.
  public static func check(
    _ files: [String], arguments: ScenarioArguments, say: (String) -> Void, warn: (String) -> Void
  ) -> Bool {
    var valid = true
    for file in files {
      do {
        let checked = try ScenarioValidation(file, arguments: arguments)
        for warning in checked.warnings { warn("\(warning)") }
        say(checked.line)
      } catch {
        warn("\(error)")
        valid = false
      }
    }
    return valid
  }

  /// A scenario's surfaces (widgets, controls, Live Activities), instances, days, replications and work.
  static func contents(_ loaded: LoadedScenario) -> String {
    let configuration = loaded.configuration
    let controls = configuration.widgets.count { $0.surface == .control }
    let activities = WorkEstimate.counted(
      configuration.liveActivities.count, "Live Activity", plural: "Live Activities")
    let surfaces =
      WorkEstimate.counted(configuration.widgets.count - controls, "widget")
      + (controls > 0 ? ", \(WorkEstimate.counted(controls, "control"))" : "")
      + (configuration.liveActivities.isEmpty ? "" : ", \(activities)")
    return "\(surfaces), \(WorkEstimate.counted(configuration.instances.count, "instance")), "
      + "\(WorkEstimate.counted(configuration.days, "day")), "
      + "\(WorkEstimate.counted(configuration.replications, "replication")); work: \(loaded.work.description)"
  }
}
