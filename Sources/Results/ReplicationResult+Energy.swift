import ResultStorage
import SimulationEngine

/// A result's energy, read by subject: which subject is which, joules by hour or over the run, and the share
/// of a battery.
extension ReplicationResult {
  /// Energy subjects: widget instances 0..<instanceCount, then these.
  public var deviceSubject: Int { instanceCount }
  public var widgetPushSubject: Int { instanceCount + 1 }
  public func activitySubject(_ kind: Int) -> Int { instanceCount + 2 + kind }
  /// The host app's own runs (its fetches, CPU and wake-ups), after the Live Activity kinds.
  public var appSubject: Int { energy.subjectCount - 1 }
  public var energySubjectCount: Int { energy.subjectCount }

  /// Joules of a subject's component in one hour.
  public func joules(day: Int, hour: Int, subject: Int, component: EnergyComponent) -> Double {
    energy.value(hourIndex: ReplicationResult.hourIndex(day: day, hour: hour), subject: subject, component: component)
  }

  /// Every subject's energy over the run by component, summed once (``EnergyTotals``).
  public func energyTotals() -> EnergyTotals {
    EnergyTotals(microjoules: energy.totalsBySubject())
  }

  /// Joules of a subject over the run, for one component or all (one pass over the books: a caller reading
  /// many takes ``energyTotals()`` once).
  public func totalJoules(subject: Int, component: EnergyComponent? = nil) -> Double {
    energyTotals().joules(subject: subject, component: component)
  }

  /// A subject's energy over the run as a share of battery (1 = one full battery), each device's joules over
  /// its own capacity, summed over devices.
  public func batteryShare(subject: Int) -> Double {
    batteryShareParts[subject].double / ReplicationResult.batteryShareScale
  }

  /// Parts of ``batteryShareParts`` in one full battery.
  package static let batteryShareScale = 1e12
}
