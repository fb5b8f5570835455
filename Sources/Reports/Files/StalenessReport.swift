import Results
import WidgetModel

/// `staleness.csv`: per replication and instance, what the user saw at views.
enum StalenessReport: RunReport {
  static let file = "staleness.csv"
  static let columns =
    "widget,subject_kind,views,placeholder_views,stale_views,staleness_mean_s,staleness_p50_s,staleness_p95_s,staleness_max_s\n"

  /// Widget and control instances, then Live Activity kinds (seen at Lock Screen and Dynamic Island views), each
  /// with its staleness recorder.
  static func recorders(_ result: ReplicationResult, subjects: RunSummary.Subjects)
    -> [(label: String, recorder: StalenessRecorder)]
  {
    subjects.instances.enumerated().map { ($0.element, result.staleness[$0.offset]) }
      + subjects.activities.enumerated().map { ($0.element, result.activityStaleness[$0.offset]) }
  }

  /// Widget instances, then Live Activity kinds; with several replications summed, their views pooled (the
  /// view counts are means per replication).
  static func rows(_ result: ReplicationResult, _ scope: ReportScope) -> String {
    var text = ""
    let kinds = scope.subjects.stalenessSubjectKinds
    for (row, (label, recorder)) in recorders(result, subjects: scope.subjects).enumerated() {
      let seconds = recorder.seconds
      let cells = [
        CSVFormat.text(label), kinds[row], scope.count(recorder.views), scope.count(recorder.placeholderViews),
        scope.count(recorder.staleViews), CSVFormat.number(seconds.count > 0 ? seconds.mean : .nan, decimals: 1),
        CSVFormat.number(recorder.quantiles.quantile(0.5), decimals: 1),
        CSVFormat.number(recorder.quantiles.quantile(0.95), decimals: 1),
        CSVFormat.number(seconds.count > 0 ? seconds.maximum : .nan, decimals: 1),
      ]
      text += scope.lead + cells.joined(separator: ",") + "\n"
    }
    return text
  }
}
