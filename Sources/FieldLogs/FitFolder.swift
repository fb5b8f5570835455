import CommandSupport
import Reports

/// The folder `calibrate` and `check --observed` write their fit into, kept as `run` keeps its own: no output
/// on a file the command reads, the folder's lock held from before the reports already there are looked at
/// until the new ones are in place, an earlier command's reports refused unless `--force`, and the reports
/// committed as one set (``ReportSet``), so a reader finds the old fit or the new one, never a mixture.
struct FitFolder {
  static var calibrationFiles: [String] { Calibration.files }

  /// The files a fit reads, named as refusals name them: the logs, the server's logs and the scenario.
  static func inputs(logs: [String], serverLogs: [String], scenario: OutputPaths.Named) -> [OutputPaths.Named] {
    logs.map { (what: "the field log", path: $0) } + serverLogs.map { (what: "the server log", path: $0) }
      + [scenario]
  }

  let directory: String
  let lock: OutputFolder.Lock
  /// Files of ``replaced`` in the folder that the command reads (`check DIR/fitted.yaml --out DIR`): never
  /// removed, whatever `--force` replaces.
  private let read: [String]

  /// Checks the outputs (`written`, in the folder) against the inputs, takes the lock, and refuses reports already there unless `force`.
  /// `inputs` are the files the command reads (logs, scenario), `extraOutputs` what it writes elsewhere
  /// (`--junit`).
  init(
    _ directory: String, writes written: [String], inputs: [OutputPaths.Named], extraOutputs: [OutputPaths.Named] = [],
    force: Bool
  ) throws(CommandFailure) {
    if let problem = OutputFolder.problem(directory) { throw .badInput(problem) }
    let outputs = written.map { (what: "the output \($0)", path: "\(directory)/\($0)") } + extraOutputs
    try OutputPaths.check(outputs: outputs, inputs: inputs)
    lock = try OutputFolder.prepare(directory)
    self.directory = directory
    let found = ExistingReports.find(FitFolder.replaced, in: directory)
    read = found.filter { name in inputs.contains { OutputPaths.same("\(directory)/\(name)", $0.path) } }
    if !force && !found.isEmpty { throw .badInput(ExistingReports.refusal(found, in: directory)) }
  }

  /// What `--force` replaces: a calibration's files and a run's (the folder then holds one command's reports).
  static var replaced: [String] {
    calibrationFiles + ExistingReports.runFiles.filter { !calibrationFiles.contains($0) }
  }

  /// Writes `files` (name and text) as one set; every other file of ``replaced`` is removed with it, as is
  /// report.html, which described the old reports, except what the command reads.
  func commit(_ files: [(name: String, text: String)]) throws(CommandFailure) {
    let set = ReportSet(directory: directory)
    do {
      for file in files { try set.write(file.text, to: file.name) }
      for name in FitFolder.replaced where !files.contains(where: { $0.name == name }) && !read.contains(name) {
        set.remove(name)
      }
      try set.commit()
    } catch {
      throw .failed("\(error)")
    }
  }
}
