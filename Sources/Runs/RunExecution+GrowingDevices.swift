import CommandSupport
import Reports
import ScenarioFiles
import Synchronization

extension RunExecution {
  /// `--precision` on per-second figures of a sampled fleet: runs this execution, then again with more
  /// devices (``SampleSizePlan``) in the same folder until the targets are met; the folder keeps the last
  /// run, whose manifest records its devices. `reload` loads the scenario with a number of devices and gives
  /// the overrides the manifest records.
  public func runGrowingDevices(
    targets: [PrecisionTarget], maximumDevices: Int?, resume: Bool, console: Console, stop: StopRequest,
    reload: (Int) throws -> (scenario: LoadedScenario, overrides: [String])
  ) throws {
    if resume {
      throw CommandFailure.badInput(
        "--resume: a run whose --precision grows its devices starts again with each sample: rerun it with --force")
    }
    // The targets are checked here: the runs below go without them (the plan, not replications, meets them).
    try checkPrecisionTargets(targets)
    let represents = scenario.configuration.fleet.represents
    let phones = Int(Swift.min(represents, 1e15).rounded(.down))
    if let maximumDevices, maximumDevices > phones {
      throw CommandFailure.badInput(
        "--max-devices \(maximumDevices): the fleet has \(phones) real phones (fleet.represents), and a sample "
          + "cannot be larger; give at most \(phones), or raise fleet.represents")
    }
    let plan = SampleSizePlan(targets: targets, maximumDevices: maximumDevices ?? phones)
    var execution = self
    execution.precision = nil
    while true {
      // Each run's result block is held: only the last run's, the answer, reaches standard output.
      let held = HeldOutput()
      let holding = Console(
        cores: console.cores, errorIsTerminal: console.errorIsTerminal,
        output: { text in held.text.withLock { $0 += text } }, error: console.error, terminal: console.terminal)
      let summary = try execution.run(console: holding, stop: stop)
      let devices = execution.scenario.configuration.fleet.devices
      let next = plan.nextDevices(after: devices, summary: summary)
      let report = plan.report(summary, devices: devices, next: next)
      guard let next else {
        // The answer and its verdict together on standard output; a target missed is a warning even when quiet.
        console.output(held.text.withLock { $0 })
        if !quiet {
          console.print(report)
        } else if report.contains("warning") {
          console.error(report + "\n")
        }
        return
      }
      // A sample too small is progress, not a result: said on standard error with the devices to come.
      if !quiet { console.error(report + "\n") }
      let (loaded, overrides) = try reload(next)
      var again = RunExecution(
        loaded, overrides: overrides + targets.map { "--precision \($0.description)" }, directory: directory,
        jobs: jobs, perDevice: perDevice, detail: detail, quiet: quiet, existing: .replace, version: version)
      again.trace = trace
      execution = again
    }
  }
}

/// What a run wrote to standard output, held until it is known to be the answer.
private final class HeldOutput: Sendable {
  let text = Mutex("")
}
