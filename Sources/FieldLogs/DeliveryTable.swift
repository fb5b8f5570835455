import Reports
import SimulationEngine

/// `delivery.csv`: per push type and local hour of the send, what the server sent, what the app saw
/// arrive and how late, in the logs and in the simulation of the fitted scenario, side by side.
public enum DeliveryTable {
  public static let file = "delivery.csv"

  public static let header =
    "push,hour,sent,delivered,delivered_share,ci95_low,ci95_high,delay_median_s,delay_p95_s,"
    + "simulated_sent,simulated_delivered,simulated_share,simulated_delay_median_s\n"

  /// The table of `observed` against `simulated`; nil when the logs hold no server sends.
  public static func csv(observed: FieldSample, simulated: FieldSample) -> String? {
    let pairs = [
      ("silent", observed.silentPushDeliveries, simulated.silentPushDeliveries),
      ("widget", observed.widgetPushDeliveries, simulated.widgetPushDeliveries),
    ]
    guard pairs.contains(where: { $0.1.sentCount > 0 }) else { return nil }
    var text = header
    for (name, logs, model) in pairs where logs.sentCount > 0 {
      for hour in 0..<24 {
        let (sent, delivered) = (logs.sent[hour], logs.delivered[hour])
        let (low, high) = FieldEstimators.clopperPearson(delivered, sent)
        let delays = SampleQuantiles(logs.delays[hour])
        let simulatedDelays = SampleQuantiles(model.delays[hour])
        let cells: [String] = [
          name, "\(hour)", "\(sent)", "\(delivered)", share(delivered, sent),
          sent > 0 ? CSVFormat.number(low, decimals: 4) : "", sent > 0 ? CSVFormat.number(high, decimals: 4) : "",
          quantile(delays, 0.5), quantile(delays, 0.95), "\(model.sent[hour])", "\(model.delivered[hour])",
          share(model.delivered[hour], model.sent[hour]), quantile(simulatedDelays, 0.5),
        ]
        text += cells.joined(separator: ",") + "\n"
      }
    }
    return text
  }

  private static func share(_ part: Int, _ whole: Int) -> String {
    whole > 0 ? CSVFormat.number(Double(part) / Double(whole), decimals: 4) : ""
  }

  private static func quantile(_ values: SampleQuantiles, _ p: Double) -> String {
    values.count > 0 ? CSVFormat.number(values.quantile(p), decimals: 3) : ""
  }
}
