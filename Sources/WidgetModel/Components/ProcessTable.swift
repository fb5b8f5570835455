import SimulationEngine

/// What a Poisson process of the device stands for, and so which component its events go to.
enum ProcessRole: Equatable {
  /// The user: views of each surface, app opens, audio sessions, App Intent taps on an instance.
  case homeScreenViews
  case lockScreenViews
  case standbyViews
  case appOpens
  case audioSessions
  case taps(InstanceID)
  /// Control Center views, Dynamic Island glances (in other apps), CarPlay drives and glances while driving.
  case controlCenterViews
  case dynamicIslandViews
  case carplayDrives
  case carplayViews
  /// The user swipes the app away in the App Switcher.
  case forceQuits
  /// The system: locale/accessibility changes, reboots.
  case environmentChanges
  case reboots
  /// The app's server: data changes of a widget kind.
  case dataChanges(KindID)
  /// The app: starts of a Live Activity kind, push-token rotations of its running activities.
  case activityStarts(ActivityKindID)
  case tokenRotations(ActivityKindID)
}

/// A Poisson process with a piecewise-constant rate: the next event is drawn for the current rate, and
/// redrawn whenever the rate changes (exact, because the exponential distribution is memoryless).
///
/// The stream is drawn from at every event: borrowed (no reference counting on each draw), and kept alive
/// by `owner`, which lives exactly as long as it does.
struct PoissonProcess {
  let role: ProcessRole
  let stream: BorrowedStream
  private let owner: RandomStream
  /// Set only with ``meanGapSeconds`` (``ProcessTable/update(hour:asleep:_:)``).
  fileprivate(set) var ratePerHour = 0.0
  /// `3_600 / ratePerHour`, kept with the rate: a division per event costs more than the rest of the gap.
  fileprivate(set) var meanGapSeconds = Double.infinity
  var pending: EventHandle?

  init(role: ProcessRole, stream: RandomStream) {
    self.role = role
    self.stream = stream.borrowed
    owner = stream
  }
}

/// Every Poisson process of the device, with each one's rate per clock hour awake and asleep tabulated once
/// per run. A process's event carries its ``ProcessID``; the device hands what it stands for to its owner.
struct ProcessTable {
  private(set) var processes: [PoissonProcess]
  /// `[process * 48 + hour * 2 + (asleep ? 1 : 0)]`.
  private var rateTable: [Double] = []

  init(_ processes: [PoissonProcess]) {
    self.processes = processes
  }

  var roles: some Sequence<ProcessRole> { processes.lazy.map(\.role) }

  /// Stores each process's rate in every clock hour, awake and asleep (`rate(role, hour, asleep)`).
  mutating func tabulate(_ rates: [Double]) {
    precondition(rates.count == processes.count * 48, "a rate for each process, clock hour and sleep state")
    rateTable = rates
  }

  /// Re-evaluates every process's rate for this clock hour and sleep state; a process whose rate changed
  /// draws its next event afresh.
  mutating func update(hour: Int, asleep: Bool, _ scheduler: inout Scheduler) {
    let column = hour * 2 + (asleep ? 1 : 0)
    for index in processes.indices {
      let rate = rateTable[index * 48 + column]
      if rate == processes[index].ratePerHour && (rate == 0 || processes[index].pending != nil) { continue }
      processes[index].ratePerHour = rate
      processes[index].meanGapSeconds = 3_600 / rate
      if let pending = processes[index].pending { scheduler.cancel(pending) }
      processes[index].pending = nil
      scheduleNext(ProcessID(index), &scheduler)
    }
  }

  /// The process's event ran: draw its next one, and say what it stands for.
  mutating func fired(_ process: ProcessID, _ scheduler: inout Scheduler) -> ProcessRole {
    processes[process.index].pending = nil
    scheduleNext(process, &scheduler)
    return processes[process.index].role
  }

  private mutating func scheduleNext(_ process: ProcessID, _ scheduler: inout Scheduler) {
    guard processes[process.index].ratePerHour > 0 else { return }
    let gap = SimDuration(
      seconds: processes[process.index].stream.exponential(mean: processes[process.index].meanGapSeconds))
    processes[process.index].pending = scheduler.schedule(
      after: gap, kind: DeviceEventKind.process.eventKind, target: process.eventTarget)
  }
}
