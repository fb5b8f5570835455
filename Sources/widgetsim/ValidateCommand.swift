import ArgumentParser
import Reports
import ScenarioFiles
import Sweeps

/// `widgetsim validate`: check scenario files without running them.
struct ValidateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "validate",
    abstract: "Check scenario files without running them; exits 2 if any is invalid."
  )

  @Argument(help: "Scenario files to check.")
  var files: [String]

  @OptionGroup var scenario: ScenarioOptions

  func validate() throws {
    if files.isEmpty { throw ValidationError("give at least one scenario file") }
  }

  func run() throws {
    var failed = false
    for file in files {
      do {
        let loaded: LoadedScenario
        switch try ScenarioLoader.loadScenarioOrSweep(
          path: file, overrides: try scenario.scenarioOverrides(), limits: scenario.limits)
        {
        case .scenario(let scenario): loaded = scenario
        case .sweep(let sweep):
          let tasks = sweep.configurations.reduce(0) { $0 + $1.replications }
          Console.standard.print(
            "\(file): ok (sweep: \(sweep.points.count) points, \(tasks) tasks, "
              + "\(WorkEstimate.scientific(sweep.events)) events, every point checked)")
          continue
        }
        let configuration = loaded.configuration
        for warning in loaded.warnings { Console.standard.error("\(warning)\n") }
        let controls = configuration.widgets.count { $0.surface == .control }
        let activities = WorkEstimate.counted(
          configuration.liveActivities.count, "Live Activity", plural: "Live Activities")
        let surfaces =
          WorkEstimate.counted(configuration.widgets.count - controls, "widget")
          + (controls > 0 ? ", \(WorkEstimate.counted(controls, "control"))" : "")
          + (configuration.liveActivities.isEmpty ? "" : ", \(activities)")
        Console.standard.print(
          "\(file): ok (\(surfaces), \(WorkEstimate.counted(configuration.instances.count, "instance")), "
            + "\(WorkEstimate.counted(configuration.days, "day")), "
            + "\(WorkEstimate.counted(configuration.replications, "replication")); work: "
            + "\(loaded.work.description))")
      } catch {
        Console.standard.error("\(error)\n")
        failed = true
      }
    }
    if failed { throw ExitCode(2) }
  }
}
