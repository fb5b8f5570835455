import Results

/// What an energy consumer (the CPU, rendering, a push's wake-up, the radios, the Live Activities) reports:
/// the joules a piece of its work cost, by hour, subject and component, and nothing more. A consumer can
/// neither read the books nor touch the battery. A replication's ``EnergyLedger`` (and the result holding
/// it) writes the report down; a test hands in a ledger or a log of its own.
protocol EnergyRecording {
  mutating func book(_ joules: Double, hourIndex: Int, subject: Int, component: EnergyComponent)
}

extension EnergyLedger: EnergyRecording {}

extension ReplicationResult: EnergyRecording {
  @inline(__always)
  mutating func book(_ joules: Double, hourIndex: Int, subject: Int, component: EnergyComponent) {
    energy.book(joules, hourIndex: hourIndex, subject: subject, component: component)
  }
}
