import WidgetModel

/// A daily local window, `{from: "HH:MM", to: "HH:MM"}` (it may cross midnight): the user's sleep, the
/// charger, a widget's active hours. Read in two steps so each caller keeps its own order of checks: the
/// times first, then (after any other keys of the same mapping) that the window is not empty.
struct DailyWindowReader {
  let from: TimeOfDayValue
  let to: TimeOfDayValue
  let toValue: YAMLValue

  /// Reads `from` and `to` from `reader`; `fromExpectation` and `toExpectation` say what is expected.
  init(_ reader: inout MappingReader, from fromExpectation: String, to toExpectation: String) throws(ScenarioError) {
    from = try reader.required("from", fromExpectation).timeOfDay()
    toValue = try reader.required("to", toExpectation)
    to = try toValue.timeOfDay()
  }

  /// The window, unless it is empty (`name` says which window in the message).
  func window(_ name: String) throws(ScenarioError) -> SleepWindow {
    guard from != to else {
      throw toValue.error("the \(name) must not be empty: from and to are both \(toValue.shown)")
    }
    return SleepWindow(
      from: TimeOfDay(hours: from.hours, minutes: from.minutes), to: TimeOfDay(hours: to.hours, minutes: to.minutes))
  }
}
