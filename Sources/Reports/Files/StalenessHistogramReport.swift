import Results
import WidgetModel

/// `staleness_histogram.csv`: views of each widget instance (and Live Activity kind) by how stale the
/// content they found was, in fixed bins, plus the views that found the placeholder (in their own bin only,
/// though staleness counts them at the age of the last good content). For the staleness
/// chart of `widgetsim report`; the counts come from the quantile sketch, so a view within its 0.5% of a bin
/// edge may be counted in the neighbouring bin.
public enum StalenessHistogramReport: RunReport {
  static let file = "staleness_histogram.csv"
  static let columns = "widget,bin,low_s,high_s,views\n"

  /// Bin edges in seconds: fresh (0), then up to 1 min, 5 min, 15 min, 30 min, 1 h, 2 h, 4 h, 8 h, and above.
  static let edges: [Double] = [60, 300, 900, 1_800, 3_600, 7_200, 14_400, 28_800]

  /// The bins' names, in order: `placeholder`, `fresh`, then by upper edge.
  public static let bins = [
    "placeholder", "fresh", "<=1m", "1-5m", "5-15m", "15-30m", "30m-1h", "1-2h", "2-4h", "4-8h", ">8h",
  ]

  /// Each bin's bounds in seconds (empty for placeholder and the open ends).
  static let lows = [Double.nan, 0, 0] + edges
  static let highs = [Double.nan, 0] + edges + [Double.nan]

  static func rows(_ result: ReplicationResult, _ scope: ReportScope) -> String {
    var text = ""
    for (label, recorder) in StalenessReport.recorders(result, subjects: scope.subjects) {
      // The sketch holds every view; the placeholder views' ages are taken out of the age bins (the same
      // buckets land in the same bins, so the difference is exact).
      let ages = zip(recorder.quantiles.histogram(edges: edges), recorder.placeholderAges.histogram(edges: edges))
      let counts = [UInt64(recorder.placeholderViews)] + ages.map { $0 - $1 }
      for (index, count) in counts.enumerated() {
        let cells = [
          CSVFormat.text(label), bins[index], CSVFormat.number(lows[index], decimals: 0),
          CSVFormat.number(highs[index], decimals: 0), scope.count(count),
        ]
        text += scope.lead + cells.joined(separator: ",") + "\n"
      }
    }
    return text
  }
}
