import ResultStorage

/// The parts of a replication's result that are model types, as accumulators (their merges and resets are
/// their own).
extension StalenessRecorder: Accumulator {}
extension ActivityTotals: Accumulator {}
extension ReplicationFingerprint: Accumulator {}
extension DeviceDistributions: Accumulator {}

extension EnergyLedger: Shaped {
  package var shape: [Int] { [hours, subjectCount] }
}

extension ServerLoad: Shaped {
  public var shape: [Int] { [minuteCount, seconds.secondCount] }
}
