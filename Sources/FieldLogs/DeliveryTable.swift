import Reports
import SimulationEngine
import Statistics

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

  /// A line per push type whose delivered share in the logs is far from the simulation's: the simulation's
  /// share outside the logs' 95% interval by more than 2 points (the model's loss, caps or delays do not
  /// match the channel, and its pushes reach more or fewer phones than real ones do).
  public static func notes(observed: FieldSample, simulated: FieldSample) -> [String] {
    [
      ("silent", observed.silentPushDeliveries, simulated.silentPushDeliveries),
      ("WidgetKit", observed.widgetPushDeliveries, simulated.widgetPushDeliveries),
    ].compactMap { name, logs, model in
      guard logs.sentCount > 0, model.sentCount > 0 else { return nil }
      let share = Double(logs.deliveredCount) / Double(logs.sentCount)
      let modelled = Double(model.deliveredCount) / Double(model.sentCount)
      let (low, high) = FieldEstimators.clopperPearson(logs.deliveredCount, logs.sentCount)
      guard modelled < low - 0.02 || modelled > high + 0.02 else { return nil }
      func percent(_ value: Double) -> String { FitText.number(value * 100, digits: 3) + "%" }
      return "\(name) pushes: the logs saw \(percent(share)) of sends arrive (95% CI \(percent(low))-"
        + "\(percent(high))), the fitted model's simulation \(percent(modelled)): its loss, caps or delays do not "
        + "match the channel (delivery.csv has it by hour)"
    }
  }
}
