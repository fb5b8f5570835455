import Reports
import ScenarioFiles

/// A point as the reports list it: its number, its label (empty without one) and each swept key's value.
public typealias SweepPointRow = (index: Int, label: String, values: [String])

/// The files a sweep keeps in its output folder besides the reports: the journal and the list of points,
/// which is all `widgetsim merge` needs to rebuild the reports from shards.
public enum SweepOutput {
  public static let journal = "sweep-journal.txt"
  public static let points = "sweep-points.csv"

  /// Writes `sweep-points.csv`: `point,replications,point_label,<each swept key>`.
  public static func writePoints(_ plan: SweepPlan, to directory: String) throws(AtomicFile.WriteError) {
    var text = "point,replications,point_label," + plan.keys.map(CSVFormat.text).joined(separator: ",") + "\n"
    for point in plan.points {
      let cells =
        ["\(point.index)", "\(plan.configurations[point.index].replications)", CSVFormat.text(point.label)]
        + point.assignments.map { CSVFormat.text($0.value) }
      text += cells.joined(separator: ",") + "\n"
    }
    try AtomicFile.write(text, to: "\(directory)/\(points)")
  }

  /// The sweep's `manifest.json`: the scenario and overrides, the seed, days and replications of every
  /// point (before `--independent-streams` mixes the seeds) and the grid, lockstep keys as one axis.
  public static func manifest(_ sweep: LoadedSweep, plan: SweepPlan, overrides: [String]) -> SweepManifest {
    let specification = sweep.specification
    return SweepManifest(
      scenarioName: sweep.name, scenarioFile: sweep.file,
      scenarioHash: SweepPlan.hexadecimal(SweepPlan.fnv1a64(sweep.text)), overrides: overrides,
      seeds: sweep.configurations.map { "\($0.seed)" }, days: sweep.configurations.map(\.days),
      replications: sweep.configurations.map(\.replications), commonRandomNumbers: plan.commonRandomNumbers,
      points: plan.points.count,
      grid: specification.dimensions.map { SweepManifest.Axis(keys: $0.keys, values: $0.values, labels: $0.labels) },
      excluded: specification.exclusions.map { exclusion in
        // In grid order: the exclusion's dictionary has none of its own.
        specification.keys.compactMap { key in exclusion[key].map { (key: key, value: $0) } }
      },
      objective: specification.objective, represents: sweep.configurations.map(\.fleet.represents))
  }

  /// The points, keys and tasks recorded in a sweep folder (a folder written before points had labels: every
  /// label empty).
  public static func readPoints(from directory: String) throws -> (
    keys: [String], points: [SweepPointRow], tasks: [(point: Int, replication: Int)]
  ) {
    let text = try TextFile.read("\(directory)/\(points)", limit: InputLimits.sweepPointsBytes)
    var lines = CSVLines.parse(text)
    guard !lines.isEmpty, lines[0].count >= 2, lines[0][0] == "point", lines[0][1] == "replications" else {
      throw SweepJournal.JournalError(message: "\(directory)/\(points) is not a sweep points file")
    }
    let labelled = lines[0].count >= 3 && lines[0][2] == "point_label"
    let lead = labelled ? 3 : 2
    let keys = Array(lines.removeFirst().dropFirst(lead))
    var points: [SweepPointRow] = []
    var tasks: [(point: Int, replication: Int)] = []
    for cells in lines where cells.count == keys.count + lead {
      guard let index = Int(cells[0]), let replications = Int(cells[1]) else { continue }
      points.append((index, labelled ? unprotected(cells[2]) : "", Array(cells.dropFirst(lead))))
      for replication in 0..<replications { tasks.append((index, replication)) }
    }
    return (keys, points, tasks)
  }

  /// A label as written before ``CSVFormat/text(_:)`` put a `'` before a formula's first character, so the
  /// merged reports write it as the unsharded run did.
  static func unprotected(_ cell: String) -> String {
    guard cell.hasPrefix("'"), let next = cell.dropFirst().first, "=+-@\t\r".contains(next) else { return cell }
    return String(cell.dropFirst())
  }
}
