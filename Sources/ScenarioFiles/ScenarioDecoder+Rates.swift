import SimulationEngine
import WidgetModel
import Yams

/// The limits on what the rates add up to (``ScenarioRates``), checked before anything is simulated or
/// allocated, each reported at the key that asks for too much.
extension ScenarioDecoder {
  static func checkRates(
    _ rates: ScenarioRates, _ configuration: ScenarioConfiguration, events: YAMLValue?, widgets: YAMLValue,
    controls: YAMLValue?, limits: ScenarioLimits
  ) throws(ScenarioError) {
    if let events, rates.fleetEventOccurrences > Double(limits.maximum(ScenarioLimits.fleetEventOccurrences)) {
      // Named at the event with the most times: a day's worth with its follow-ups.
      let perDay = configuration.events.map { event in
        (Double(event.times.count) + (event.rate?.perHour.reduce(0, +) ?? 0)) * Double(1 + event.followUps)
      }
      let largest = perDay.indices.max { perDay[$0] < perDay[$1] } ?? 0
      let nodes = try events.sequence()
      let element = YAMLValue(
        node: nodes[largest], path: ScenarioPath.widgetPath(node: nodes[largest], index: largest, base: events.path),
        source: events.source)
      throw element.error(
        "\(WorkEstimate.scientific(perDay[largest])) times a day (follow-ups included) over "
          + "\(configuration.simulatedDays + 2) days (the run's and a day either side): "
          + limits.message(
            ScenarioLimits.fleetEventOccurrences, value: WorkEstimate.scientific(rates.fleetEventOccurrences)))
    }
    guard let worst = rates.pendingBurstUpdates.max(by: { $0.updates < $1.updates }),
      rates.pendingBurstUpdates.reduce(0, { $0 + $1.updates }) > ScenarioLimits.pendingBurstUpdates
    else { return }
    let index = configuration.widgets.firstIndex { $0.dataKey == worst.kind } ?? 0
    let widgetCount = try widgets.sequence().count
    let list = index < widgetCount ? widgets : (controls ?? widgets)
    let position = index < widgetCount ? index : index - widgetCount
    let nodes = try list.sequence()
    var place = YAMLValue(
      node: nodes[position], path: ScenarioPath.widgetPath(node: nodes[position], index: position, base: list.path),
      source: list.source)
    for key in ["data", "changes", "bursts"] {
      guard var reader = try? place.mapping(), let child = reader.optional(key) else { break }
      place = child
    }
    let total = rates.pendingBurstUpdates.reduce(0) { $0 + $1.updates }
    throw place.error(
      "bursts keep about \(WorkEstimate.scientific(total.rounded())) updates pending on one device at once (each "
        + "burst schedules all its updates when it starts), above the limit of "
        + "\(Int(ScenarioLimits.pendingBurstUpdates)) (a quarter of the \(EventSet.maximumPending) events one device "
        + "can hold pending, which --allow-large does not lift): start fewer bursts, give them fewer updates or "
        + "space them closer")
  }
}
