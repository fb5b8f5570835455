/// `replications.csv`: every summary metric's value in every replication, at full precision, with the seed,
/// so `widgetsim compare` can test differences (paired when two runs share seed and replications). A copy
/// of this file is a stored baseline for `widgetsim check`.
enum ReplicationsReport {
  static let file = "replications.csv"
  static let header = "seed,replication,metric,widget,value,unit\n"

  static func rows(_ values: [MetricValue], seed: UInt64, replication: Int) -> String {
    var text = ""
    for value in values {
      text += "\(seed),\(replication),\(value.metric),\(CSVFormat.text(value.widget)),"
      text += value.value.isFinite ? "\(value.value)" : ""
      text += ",\(value.unit)\n"
    }
    return text
  }
}
