import SimulationEngine

// The model's calendar: days of 24 hours from the start of the run (the device's local midnight).
// Computed, not stored: a stored static would be read through a lazy-initialisation check on every use.
extension SimDuration {
  static var hour: SimDuration { SimDuration(microseconds: 3_600_000_000) }
  static var day: SimDuration { SimDuration(microseconds: 86_400_000_000) }
}

extension SimTime {
  /// Whole hours since the start.
  var hourIndex: Int { Int(microseconds / SimDuration.hour.microseconds) }
  /// Whole days since the start.
  var dayIndex: Int { Int(microseconds / SimDuration.day.microseconds) }
  /// The hour the local clock shows, 0..<24.
  var clockHour: Int { Int((microseconds % SimDuration.day.microseconds) / SimDuration.hour.microseconds) }
  /// Time since the last midnight.
  var sinceMidnight: SimDuration { SimDuration(microseconds: microseconds % SimDuration.day.microseconds) }
}
