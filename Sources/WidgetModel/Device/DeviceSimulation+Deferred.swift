import Results
import SimulationEngine

/// Poisson firings that wait for the device's next event (``ProcessDeferral``): which processes may defer,
/// the gates after each event, and the due firings taken in time order before it.
///
/// A deferred firing is still counted as a handled event and folded into the trajectory at its own time, so
/// a device's fingerprint and `events_handled` are the same as with every firing an event.
extension DeviceSimulation {
  /// Says which processes may defer, and opens their gates as they stand (not for a traced device: its
  /// timeline is recorded as events run).
  mutating func configureDeferral() {
    guard defersFirings && timeline == nil && trace == nil && appTrace == nil else { return }
    let otherPage = hasOtherPageWidget
    let activitiesSeen = !activities.kinds.isEmpty
    let sources = data.sources
    processes.allowDeferral(appIdle: appIsIdle, noCatchUp: noCatchUpDue) { role in
      switch role {
      case .homeScreenViews: otherPage ? .whileNoCatchUp : .always
      case .lockScreenViews: activitiesSeen ? .never : .always
      case .dataChanges(let kind):
        sources[kind.index].pushes.isEmpty ? .whileAppIdle : .never
      default: .never
      }
    }
  }

  /// Whether a data change would reach the app now: not while it is not running, or the phone is off.
  var appIsIdle: Bool { app.runningChannel == nil || power.isOff }

  /// Whether a Home Screen view now would raise no catch-up (no widget on another page is waiting).
  var noCatchUpDue: Bool {
    // Indices, not `contains`: a closure over the instances would copy each one, after every event.
    for index in instances.indices
    where instances[index].placementRule.catchesUpWhenSeen && instances[index].installed
      && instances[index].machine.isWaiting
    {
      return false
    }
    return true
  }

  /// After an event: the gates as the event left them (a gate no process uses stays as it is).
  mutating func refreshDeferralGates(_ scheduler: inout Scheduler) {
    let appIdle = processes.gatedByApp ? appIsIdle : processes.appIdle
    let noCatchUp = processes.gatedByCatchUp ? noCatchUpDue : processes.noCatchUp
    if appIdle != processes.appIdle || noCatchUp != processes.noCatchUp {
      processes.setGates(appIdle: appIdle, noCatchUp: noCatchUp, &scheduler)
    }
  }

  /// Takes the deferred firings before `limit`, in time order, each acting at its own time.
  mutating func runDeferred(before limit: SimTime, _ scheduler: inout Scheduler) {
    while let (process, time) = processes.takeDeferred(before: limit, &scheduler) {
      tally.deferredFirings += 1
      tally.trajectory.add(
        Event(time: time, sequence: 0, kind: ProcessEvent.fired.eventKind, target: process.eventTarget))
      switch processes.role(of: process) {
      case .homeScreenViews: homeScreenViewed(at: time, &scheduler)
      case .lockScreenViews: lockScreenViewed(at: time, &scheduler)
      case .dataChanges(let kind): dataFellBehind(kind, at: time)
      default: preconditionFailure("a process deferred that may not be")
      }
    }
  }

  /// A Home Screen view at `now`: each widget the user sees there (its page, the Smart Stack's pick).
  mutating func homeScreenViewed(at now: SimTime, _ scheduler: inout Scheduler) {
    // The page-visit stream is drawn only where a widget waits on another page (it is its own stream: no
    // other draw moves without it).
    let visitsOtherPage = hasOtherPageWidget && user.visitsOtherPage()
    let stackShows = smartStack.shown(hour: now.clockHour)
    for index in instances.indices where instances[index].placementRule.views == .homeScreen {
      let visible: Bool
      switch instances[index].placementRule.homeScreenShare {
      case .every: visible = true
      case .otherPage: visible = visitsOtherPage
      case .smartStack:
        if user.configuration.smartStack.rule == .fixed {
          visible = instances[index].streams.smartStack.bernoulli(user.configuration.smartStackProbability)
        } else {
          visible = index == stackShows
        }
      }
      if visible { view(index, at: now, &scheduler) }
    }
  }

  /// A Lock Screen view at `now`: its widgets, and the Live Activities shown there.
  mutating func lockScreenViewed(at now: SimTime, _ scheduler: inout Scheduler) {
    for index in instances.indices where instances[index].placementRule.views == .lockScreen {
      view(index, at: now, &scheduler)
    }
    if !power.isOff { activities.lockScreenViewed(at: now, &recorder) }
  }

  /// A data change the app does not learn of (it is idle) and no push announces: the kind's widgets and
  /// the app's store fall behind; the rest of ``dataChanged(_:pushes:_:)`` has nothing to do.
  mutating func dataFellBehind(_ kind: KindID, at now: SimTime) {
    for position in data.sources[kind.index].range {
      instances[data.members[position].index].machine.dataChanged(at: now)
    }
    app.dataChanged(kind: kind.index, at: now)
  }
}
