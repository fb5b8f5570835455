import ResultStorage
import SimulationEngine

/// A replication's energy over the whole run by subject and component, summed from its hourly books in one
/// pass (exact: as integers), for a summary that reads many (``ReplicationResult/energyTotals()``).
public struct EnergyTotals: Sendable, Equatable {
  /// Microjoules by subject and component (``EnergyLedger/column(subject:component:)``).
  let microjoules: [Int128]

  /// Joules of a subject, for one component or all.
  public func joules(subject: Int, component: EnergyComponent? = nil) -> Double {
    let cells = EnergyLedger.columns.cells(ofRow: subject)
    precondition(subject >= 0 && cells.lowerBound < microjoules.count, "energy subject \(subject)")
    guard let component else {
      var sum: Int128 = 0
      for cell in cells { sum += microjoules[cell] }
      return sum.double / 1e6
    }
    return microjoules[EnergyLedger.column(subject: subject, component: component)].double / 1e6
  }
}
