import Results

/// What an energy consumer (the CPU, rendering, a push's wake-up, the radios, the Live Activities) reports:
/// the joules a piece of its work cost, by hour, subject and component, and nothing more. A consumer can
/// neither read the books nor touch the battery. The device's ``DeviceRecorder`` writes the report down in
/// the ledger and hands the joules to the power system to drain; a test hands in a log of its own.
protocol EnergyRecording {
  mutating func book(_ joules: Double, hourIndex: Int, subject: Int, component: EnergyComponent)
  /// `first` as `components.0`, then `second` as `components.1`, to one subject in one hour: the two
  /// bookings in that order (the device's recorder books them in one go).
  mutating func book(
    _ first: Double, _ second: Double, hourIndex: Int, subject: Int, components: (EnergyComponent, EnergyComponent))
}

extension EnergyRecording {
  mutating func book(
    _ first: Double, _ second: Double, hourIndex: Int, subject: Int, components: (EnergyComponent, EnergyComponent)
  ) {
    book(first, hourIndex: hourIndex, subject: subject, component: components.0)
    book(second, hourIndex: hourIndex, subject: subject, component: components.1)
  }
}
