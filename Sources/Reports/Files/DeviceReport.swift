import WidgetModel

/// A per-device report (`--per-device`): a CSV of one row per phone and replication, made from what each
/// phone recorded of itself (``DeviceSummary``, ``DeviceRecord``).
protocol DeviceReport: Sendable {
  static var file: String { get }
  static var header: String { get }
  /// The rows of `summaries`, the phones of replication `replication`, in their order.
  static func rows(_ summaries: [DeviceSummary], replication: Int) -> String
}

/// Every per-device report, once: the run's writer opens, fills and commits each one (or removes an earlier
/// run's file without `--per-device`), and ``ExistingReports/runFiles`` names their files.
public enum DeviceReports {
  static let all: [any DeviceReport.Type] = [DevicesReport.self]

  /// Their files, in the order they are committed.
  public static let files = all.map { $0.file }
}
