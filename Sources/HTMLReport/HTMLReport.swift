import CommandSupport
import Reports

/// `widgetsim report`: report.html for a run folder or a sweep folder (also one merged from shards).
public enum HTMLReport {
  public struct InputError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { message }
  }

  /// The page's name inside the folder.
  public static let file = "report.html"

  /// Writes `directory/report.html` (atomically) and returns its path. A run's page draws the device
  /// timeline `timeline` chooses when the folder has trace.csv.
  @discardableResult
  /// A sweep's server chart has a second axis for `users` phones (nil: the fleet's `represents`).
  public static func write(
    directory: String, timeline: TimelineChoice = TimelineChoice(), users: Double? = nil
  ) throws -> String {
    let html: String
    do {
      let found = ExistingReports.find(["sweep_summary.csv", "summary.csv", "fit_curves.csv"], in: directory)
      if found.contains("sweep_summary.csv") {
        if timeline.isExplicit {
          throw InputError(message: "\(directory): a sweep has no device timeline (--device and --day are for runs)")
        }
        html = try sweep(directory: directory, users: users)
      } else if found.contains("summary.csv") {
        html = try run(directory: directory, timeline: timeline)
      } else if found.contains("fit_curves.csv") {
        html = try FitCharts.page(directory: directory)
      } else {
        throw InputError(
          message: "\(directory): holds neither a run's reports (summary.csv), a sweep's (sweep_summary.csv) nor "
            + "a calibration's (fit_curves.csv)")
      }
    } catch let error as CSVTable.ReadError {
      throw InputError(message: "\(error)")
    } catch let error as TextFile.ReadError {
      throw InputError(message: "\(error)")
    }
    let path = "\(directory)/\(file)"
    try AtomicFile.write(html, to: path)
    return path
  }

  static func run(directory: String, timeline choice: TimelineChoice) throws -> String {
    let manifest = try ManifestFields(directory: directory)
    var charts = try RunCharts(directory: directory, manifest: manifest).charts()
    let timeline = try DeviceTimeline.read(
      directory: directory, choice: choice, days: manifest.integer("days") ?? 1)
    if let timeline { charts.append(timeline.chart) }
    let name = manifest["scenario_name"] ?? directory
    var facts: [(String, String)] = [
      ("scenario", manifest["scenario_file"] ?? "?"), ("seed", manifest["seed"] ?? "?"),
      ("days", manifest["days"] ?? "?"),
      ("replications", manifest["replications_completed"] ?? manifest["replications"] ?? "?"),
      ("devices", manifest["devices"] ?? "1"), ("widgetsim", manifest["widgetsim_version"] ?? "?"),
    ]
    if let overrides = manifest["overrides"], overrides != "[]" { facts.append(("overrides", overrides)) }
    // What every cost figure rests on (the network above all): beside the figures, not in the scenario alone.
    if let assumptions = manifest["assumptions"] {
      facts.append(("assumptions", String(assumptions.dropFirst("assumptions: ".count))))
    }
    var notes: [String] = []
    if timeline == nil { notes.append(DeviceTimeline.missingNote) }
    if manifest["complete"] == "false" {
      notes.append(
        "This run was interrupted: the reports hold \(manifest["replications_completed"] ?? "?") of "
          + "\(manifest["replications"] ?? "?") replications (resume it with widgetsim run --resume).")
    }
    // What the run warned of (a pinned time in a fleet, a herd nothing in the scenario explains).
    if let text = manifest["warnings"], case .array(let warnings)? = try? JSONValue.parse(text) {
      for case .string(let warning) in warnings { notes.append("Warning: \(warning)") }
    }
    return HTMLPage.html(
      title: "widgetsim run: \(name)", facts: facts, charts: charts,
      tables: try SummaryTables.run(directory: directory),
      notes: notes)
  }

  static func sweep(directory: String, users: Double? = nil) throws -> String {
    let manifest = try SweepManifest(directory: directory)
    let sweep = try SweepCharts(directory: directory, manifest: manifest, users: users)
    // A selection's charts after the designs' figures they summarise.
    let charts = try sweep.charts() + SelectionCharts.charts(directory: directory)
    let pointColumn = try sweep.table.column("point")
    let points = Set(sweep.table.rows.map { $0[pointColumn] }).count
    let name = manifest?.scenarioName ?? directory.split(separator: "/").last.map(String.init) ?? directory
    var facts: [(String, String)] = [("folder", directory)]
    if let manifest {
      facts += [
        ("scenario", manifest.scenarioFile), ("seed", manifest.seedText), ("days", manifest.daysText),
        ("replications", manifest.replicationsText),
      ]
      if !manifest.overrides.isEmpty { facts.append(("overrides", manifest.overrides.joined(separator: " "))) }
      if !manifest.commonRandomNumbers { facts.append(("streams", "independent")) }
    }
    facts.append(("points", HTMLText.figure("\(points)")))
    // The grid: each axis with its values, lockstep keys together.
    for axis in manifest?.grid ?? sweep.keys.map({ SweepManifest.Axis(keys: [$0], values: []) }) {
      let keys = axis.keys.joined(separator: " / ")
      if let labels = axis.labels, labels.count == axis.values.count {
        let settings = zip(labels, axis.values).map { "\($0) (\($1.joined(separator: " / ")))" }
        facts.append(("designs", "\(keys): \(settings.joined(separator: "; "))"))
      } else if axis.keys.count > 1 {
        // Numbered as the charts' x axis names them.
        let settings = axis.values.enumerated().map { "#\($0.offset) \($0.element.joined(separator: " / "))" }
        facts.append(("swept in lockstep", "\(keys): \(settings.joined(separator: "; "))"))
      } else {
        let settings = axis.values.map { $0.joined() }.joined(separator: ", ")
        facts.append(("swept", settings.isEmpty ? keys : "\(keys): \(settings)"))
      }
    }
    if let excluded = manifest?.excluded, !excluded.isEmpty {
      let text = excluded.map { $0.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") }.joined(separator: "; ")
      facts.append(("excluded", text))
    }
    return HTMLPage.html(
      title: "widgetsim sweep: \(name)", facts: facts, charts: charts, tables: try SummaryTables.sweep(sweep),
      notes: [])
  }
}

extension HTMLReport {
  /// ``write(directory:)`` for a command: a folder without readable reports fails with exit 2, a page that
  /// cannot be written with exit 1.
  @discardableResult
  public static func writeForCommand(
    directory: String, timeline: TimelineChoice = TimelineChoice(), users: Double? = nil
  ) throws(CommandFailure) -> String {
    if let problem = OutputFolder.problem(directory) { throw .badInput(problem) }
    guard TextFile.isDirectory(directory) else { throw .badInput("\(directory): no such folder") }
    let lock = try OutputFolder.lock(directory)
    defer { withExtendedLifetime(lock) {} }
    do {
      return try write(directory: directory, timeline: timeline, users: users)
    } catch let error as InputError {
      throw .badInput("\(error)")
    } catch {
      throw .failed("\(error)")
    }
  }
}
