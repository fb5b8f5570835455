import SimulationEngine

/// What a Poisson process of the device stands for; its rate depends on the hour and on sleep.
enum ProcessRole: Equatable {
  case homeScreenViews
  case lockScreenViews
  case standbyViews
  case appOpens
  case audioSessions
  case environmentChanges
  case reboots
  /// Data changes of the kind with this index.
  case dataChanges(kind: Int)
  /// App Intent taps on the instance with this index.
  case taps(instance: Int)
  /// Starts of the Live Activity kind with this index.
  case activityStarts(definition: Int)
}

/// A Poisson process with a piecewise-constant rate: the next event is drawn for the current rate, and
/// redrawn whenever the rate changes (exact, because the exponential distribution is memoryless).
struct PoissonProcess {
  let role: ProcessRole
  let stream: RandomStream
  var ratePerHour = 0.0
  var pending: EventHandle?

  init(role: ProcessRole, stream: RandomStream) {
    self.role = role
    self.stream = stream
  }
}
