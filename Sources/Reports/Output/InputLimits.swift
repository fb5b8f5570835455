/// The largest file widgetsim reads of each kind it takes as input (docs/commands.md, "Running safely", lists them):
/// each is far above what widgetsim writes for a run within the standard limits, and is checked before the
/// file is read (``TextFile``), so a file that grew by mistake (a log, a dataset, a corrupt copy) is refused
/// in milliseconds instead of filling memory. Scenario and sweep files have their own limit
/// (`ScenarioLoader.maximumFileBytes`, 4 MiB), which also applies to a shard's `scenario.yaml`.
public enum InputLimits {
  /// `manifest.json` of a run or a sweep (a 100,000-replication run's fingerprints are about 2 MB).
  public static let manifestBytes = 16 << 20
  /// A CSV report that `report` reads whole to chart it (a three-year fleet run's `server_load.csv` is
  /// about 220 MB); also a run's `trace.csv`.
  public static let chartedReportBytes = 256 << 20
  /// `replications.csv`, read by `compare`, `check` and `run --resume` (a 10^4-replication fleet run with
  /// 300 metrics is about 50 MB).
  public static let replicationsBytes = 256 << 20
  /// Short text a command wrote to describe its work: a shard's `shard.txt`, `resume.txt` (a line per
  /// replication).
  public static let descriptionBytes = 16 << 20
  /// An exact binary result: a fleet shard's `replication-R.shard`, an interrupted run's `resume.bin` (a
  /// replication's per-second load is about 1 MB a simulated day at the most).
  public static let resultBytes = 4 << 30
  /// A sweep's journal (a 10^5-task sweep with 200 metrics a task is about 150 MB).
  public static let journalBytes = 512 << 20
  /// A sweep folder's `sweep_points.csv`.
  public static let sweepPointsBytes = 64 << 20
  /// A benchmark baseline (`bench --baseline`).
  public static let benchmarkBaselineBytes = 16 << 20
}
