import Results
import WidgetModel

/// One CSV report of a run: its file, its columns and the rows of one result. ``RunReports/perReplication``
/// lists the conforming types in the order the writer creates, fills and commits their files.
///
/// A report writes either one replication's rows (`run --detail`: each row starts with the replication's
/// number) or the mean over every replication of the run (the default: the writer adds the replications'
/// results up and writes the rows once, without a `replication` column); ``ReportScope`` says which.
///
/// A protocol of static requirements only: a report is a format, not an object with state, so the list is
/// one of metatypes and ``RunReportWriter`` keeps the open file beside each. The reports a run writes
/// otherwise (`replications.csv` and `devices.csv` from other inputs, `summary.csv` and `manifest.json` once
/// at the end) are the writer's own.
protocol RunReport: Sendable {
  /// The file's name inside the run's folder.
  static var file: String { get }
  /// The columns after `replication` (which only `--detail` writes), with the newline.
  static var columns: String { get }
  /// The first line, with its newline.
  static func header(detail: Bool) -> String
  /// The rows of `result` (one replication's, or the sum of several: see `scope`), each ending in a newline.
  static func rows(_ result: ReplicationResult, _ scope: ReportScope) -> String
}

extension RunReport {
  static func header(detail: Bool) -> String { detail ? "replication," + columns : columns }
}

/// Whose figures a report's rows give: one replication's, or the mean over the replications a result sums.
struct ReportScope: Sendable {
  let subjects: RunSummary.Subjects
  /// The replication the rows belong to (each row starts with it); nil for the mean over ``replications``.
  let replication: Int?
  /// Replications the result sums (1 for one replication's rows).
  let replications: Int

  /// One replication's rows (`--detail`).
  static func replication(_ number: Int, subjects: RunSummary.Subjects) -> ReportScope {
    ReportScope(subjects: subjects, replication: number, replications: 1)
  }

  /// The mean over `replications` replications summed into one result.
  static func mean(of replications: Int, subjects: RunSummary.Subjects) -> ReportScope {
    ReportScope(subjects: subjects, replication: nil, replications: max(1, replications))
  }

  /// The cells that start a row: the replication and a comma, or nothing.
  var lead: String { replication.map { "\($0)," } ?? "" }

  /// Multiplies a sum over the result's replications into the mean per replication.
  var perReplication: Double { 1 / Double(replications) }

  /// Decimals for a figure written with `decimals` for one replication: two more for a mean over several
  /// (a per-minute mean of one phone's requests is a few hundredths).
  func decimals(_ decimals: Int) -> Int { replications == 1 ? decimals : decimals + 2 }

  /// A count summed over the result's replications, as the mean per replication: an integer when the
  /// result is one replication's, else with three decimals.
  func count<Count: BinaryInteger>(_ value: Count) -> String {
    replications == 1 ? "\(value)" : CSVFormat.number(Double(value) / Double(replications), decimals: 3)
  }

  /// ``count(_:)``'s text, appended to `csv`.
  func count<Count: BinaryInteger>(_ value: Count, into csv: inout CSVBytes) {
    if replications == 1, let whole = Int(exactly: value), whole >= 0 {
      csv.integer(whole)
    } else if replications == 1 {
      csv.append("\(value)")
    } else {
      csv.number(Double(value) / Double(replications), decimals: 3)
    }
  }
}

extension RunSummary.Subjects {
  /// Push targets in `push.csv`: the app's widgets, then each Live Activity kind.
  var pushTargets: [String] { ["widgets"] + activities }

  /// Energy subjects in `energy.csv`: widget instances, the device itself, widget pushes, Live Activity kinds,
  /// the host app's own runs.
  var energySubjects: [String] { instances + ["device", "widget_push"] + activities + ["app"] }

  /// What each energy subject is (`subject_kind`): `widget` or `control` for instances, then `device`,
  /// `push`, `activity` per kind, `app`.
  var energySubjectKinds: [String] {
    instanceKinds + ["device", "push"] + activities.map { _ in "activity" } + ["app"]
  }

  /// What each row of `staleness.csv` is: instances (`widget` / `control`), then Live Activity kinds.
  var stalenessSubjectKinds: [String] { instanceKinds + activities.map { _ in "activity" } }
}
