import SimulationEngine

/// A replication's energy over the whole run by subject and component, summed from its hourly books in one
/// pass (exact: as integers), for a summary that reads many (``ReplicationResult/energyTotals()``).
public struct EnergyTotals: Sendable, Equatable {
  /// Microjoules by `subject * componentCount + component`.
  let microjoules: [Int128]

  /// Joules of a subject, for one component or all.
  public func joules(subject: Int, component: EnergyComponent? = nil) -> Double {
    let base = subject * EnergyLedger.componentCount
    precondition(subject >= 0 && base < microjoules.count, "energy subject \(subject)")
    guard let component else {
      var sum: Int128 = 0
      for offset in 0..<EnergyLedger.componentCount { sum += microjoules[base + offset] }
      return sum.double / 1e6
    }
    return microjoules[base + component.rawValue].double / 1e6
  }
}
