import ResultStorage
import Results
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
  /// Whether its firings may wait for the device's next event (``ProcessDeferral``).
  fileprivate(set) var deferral = ProcessDeferral.never
  /// When it fires next while that firing waits (``ProcessTable/noneDeferred`` otherwise).
  fileprivate(set) var deferredTime = ProcessTable.noneDeferred

  init(role: ProcessRole, stream: RandomStream) {
    self.role = role
    self.stream = stream.borrowed
    owner = stream
  }
}

/// Every Poisson process of the device, with each one's rate per clock hour awake and asleep tabulated once
/// per run. A process's event carries its ``ProcessID``; the device hands what it stands for to its owner.
///
/// A process whose firing only changes state that the device's next event reads (``ProcessDeferral``) may
/// keep its next firing here instead of in the event set: the device takes those due before each event it
/// handles (``takeDeferred(before:_:)``), in time order, so they draw and act exactly as events would.
struct ProcessTable {
  /// Written only here (a ``FixedTable`` can be written through any holder): others read through
  /// ``count`` and ``role(of:)``.
  private let processes: FixedTable<PoissonProcess>
  /// Rates per hour, laid out by ``rateLayout``.
  private var rateTable: [Double] = []
  /// The rate table's cells: a row per process, in it a cell per clock hour and sleep state (awake first).
  static let rateLayout = TableLayout3(middle: 24, inner: 2)
  /// The gates of ``ProcessDeferral``: whether the app is idle (not running, or the phone is off), and
  /// whether no widget on another Home Screen page waits for a view's catch-up.
  private(set) var appIdle = false
  private(set) var noCatchUp = false
  /// The processes that may defer at all (a few of them: the ones searched for deferred firings).
  private var deferrable: [Int] = []
  /// The earliest ``PoissonProcess/deferredTime``: what the device compares each event's time with.
  private(set) var earliestDeferred = ProcessTable.noneDeferred

  static let noneDeferred = SimTime(microseconds: .max)

  init(_ processes: [PoissonProcess]) {
    self.processes = FixedTable(processes)
  }

  var roles: [ProcessRole] { processes.map(\.role) }
  var count: Int { processes.count }
  func role(of process: ProcessID) -> ProcessRole { processes[process.index].role }

  /// Whether a process defers behind each gate (the device looks at those after each event).
  private(set) var gatedByApp = false
  private(set) var gatedByCatchUp = false
  var hasGates: Bool { gatedByApp || gatedByCatchUp }

  /// Stores each process's rate in every clock hour, awake and asleep (`rate(role, hour, asleep)`).
  mutating func tabulate(_ rates: [Double]) {
    precondition(
      rates.count == ProcessTable.rateLayout.index(processes.count, 0, 0),
      "a rate for each process, clock hour and sleep state")
    rateTable = rates
  }

  /// Lets processes defer their firings, as each one's ``PoissonProcess/deferral`` allows (set before the
  /// first ``update(hour:asleep:_:)``; without it every process is `.never`, as for a traced device).
  mutating func allowDeferral(appIdle: Bool, noCatchUp: Bool, _ deferral: (ProcessRole) -> ProcessDeferral) {
    for index in processes.indices { processes[index].deferral = deferral(processes[index].role) }
    deferrable = processes.indices.filter { processes[$0].deferral != .never }
    gatedByApp = processes.contains { $0.deferral == .whileAppIdle }
    gatedByCatchUp = processes.contains { $0.deferral == .whileNoCatchUp }
    self.appIdle = appIdle
    self.noCatchUp = noCatchUp
  }

  /// Re-evaluates every process's rate for this clock hour and sleep state; a process whose rate changed
  /// draws its next event afresh.
  mutating func update(hour: Int, asleep: Bool, _ timers: inout some ProcessTimers & ~Copyable) {
    for index in processes.indices {
      let rate = rateTable[ProcessTable.rateLayout.index(index, hour, asleep ? 1 : 0)]
      let scheduled = processes[index].pending != nil || processes[index].deferredTime != ProcessTable.noneDeferred
      if rate == processes[index].ratePerHour && (rate == 0 || scheduled) { continue }
      processes[index].ratePerHour = rate
      processes[index].meanGapSeconds = 3_600 / rate
      if let pending = processes[index].pending { timers.cancel(pending) }
      processes[index].pending = nil
      if processes[index].deferredTime != ProcessTable.noneDeferred {
        processes[index].deferredTime = ProcessTable.noneDeferred
        findEarliestDeferred()
      }
      scheduleNext(ProcessID(index), from: timers.now, &timers)
    }
  }

  /// The process's event ran: draw its next one, and say what it stands for.
  mutating func fired(_ process: ProcessID, _ timers: inout some ProcessTimers & ~Copyable) -> ProcessRole {
    processes[process.index].pending = nil
    scheduleNext(process, from: timers.now, &timers)
    return processes[process.index].role
  }

  /// The earliest deferred firing before `limit`, taken (its next firing drawn from it); nil when none is.
  mutating func takeDeferred(before limit: SimTime, _ timers: inout some ProcessTimers & ~Copyable) -> (
    ProcessID, SimTime
  )? {
    guard earliestDeferred < limit else { return nil }
    let time = earliestDeferred
    var position = 0
    while processes[deferrable[position]].deferredTime != time { position += 1 }
    let process = deferrable[position]
    processes[process].deferredTime = ProcessTable.noneDeferred
    scheduleNext(ProcessID(process), from: time, &timers)
    findEarliestDeferred()
    return (ProcessID(process), time)
  }

  /// Opens or closes the gates; a process whose gate closes puts its deferred firing in the event set.
  mutating func setGates(appIdle: Bool, noCatchUp: Bool, _ timers: inout some ProcessTimers & ~Copyable) {
    let closing = (self.appIdle && !appIdle) || (self.noCatchUp && !noCatchUp)
    self.appIdle = appIdle
    self.noCatchUp = noCatchUp
    guard closing else { return }
    for index in deferrable
    where processes[index].deferredTime != ProcessTable.noneDeferred && !mayDefer(processes[index].deferral) {
      processes[index].pending = timers.scheduleFiring(of: ProcessID(index), at: processes[index].deferredTime)
      processes[index].deferredTime = ProcessTable.noneDeferred
    }
    findEarliestDeferred()
  }

  private func mayDefer(_ deferral: ProcessDeferral) -> Bool {
    switch deferral {
    case .never: false
    case .always: true
    case .whileAppIdle: appIdle
    case .whileNoCatchUp: noCatchUp
    }
  }

  private mutating func findEarliestDeferred() {
    var earliest = ProcessTable.noneDeferred
    for index in deferrable where processes[index].deferredTime < earliest {
      earliest = processes[index].deferredTime
    }
    earliestDeferred = earliest
  }

  /// Draws the process's next firing after `time`: an event, or a deferred firing where its gate is open.
  private mutating func scheduleNext(
    _ process: ProcessID, from time: SimTime, _ timers: inout some ProcessTimers & ~Copyable
  ) {
    guard processes[process.index].ratePerHour > 0 else { return }
    let gap = SimDuration(
      seconds: processes[process.index].stream.exponential(mean: processes[process.index].meanGapSeconds))
    if mayDefer(processes[process.index].deferral) {
      let next = time + gap
      processes[process.index].deferredTime = next
      if next < earliestDeferred { earliestDeferred = next }
      return
    }
    processes[process.index].pending = timers.scheduleFiring(of: process, at: time + gap)
  }
}

/// When a process's firing may wait for the device's next event instead of being an event of its own: only
/// where it changes nothing but state that events read (no event scheduled, no push sent), so that taken in
/// time order before the next event it draws and acts exactly as its event would have.
enum ProcessDeferral: Equatable {
  case never
  /// Views of a surface with no Live Activity to see, when no widget is on another Home Screen page.
  case always
  /// A data change without pushes: while the app is not running (or the phone is off), it only puts the
  /// kind's widgets and the app's store behind; a running app would learn of it at once.
  case whileAppIdle
  /// Home Screen views, where a widget on another page may be waiting for a view's catch-up reload.
  case whileNoCatchUp
}
