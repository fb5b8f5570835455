import WidgetModel

/// One CSV report of a run that grows by a block of rows per replication: its file, its header and the rows
/// one replication adds. ``RunReports/perReplication`` lists the conforming types in the order the writer
/// creates, fills and commits their files.
///
/// A protocol of static requirements only: a report is a format, not an object with state, so the list is
/// one of metatypes and ``RunReportWriter`` keeps the open file beside each. The reports a run writes
/// otherwise (`replications.csv` and `devices.csv` from other inputs, `summary.csv` and `manifest.json` once
/// at the end) are the writer's own.
protocol RunReport: Sendable {
  /// The file's name inside the run's folder.
  static var file: String { get }
  /// The first line, with its newline.
  static var header: String { get }
  /// The rows of one replication, each ending in a newline.
  static func rows(_ result: ReplicationResult, subjects: RunSummary.Subjects) -> String
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
