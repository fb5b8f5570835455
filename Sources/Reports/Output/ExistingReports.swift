#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reports already in an output folder: widgetsim does not overwrite them unless told to (`--force`).
public enum ExistingReports {
  /// Every file a run, its comparison or its resume may leave in its folder.
  public static let runFiles =
    RunReportWriter.files + DeviceReports.files + [
      RunProgress.file, RunTotal.file, "compare.csv", "report.html", TraceReport.file,
    ]

  /// Which of `names` exist in `directory`.
  public static func find(_ names: [String], in directory: String) -> [String] {
    names.filter { access("\(directory)/\($0)", F_OK) == 0 }
  }

  /// The refusal for `found` in `directory`, naming what to pass instead.
  public static func refusal(_ found: [String], in directory: String, resumable: Bool = false) -> String {
    let shown = found.prefix(3).joined(separator: ", ") + (found.count > 3 ? ", ..." : "")
    return "\(directory)/ already holds reports (\(shown)); pass --force to replace them"
      + (resumable ? ", --resume to carry on the interrupted run there" : "") + ", or choose another --out"
  }
}
