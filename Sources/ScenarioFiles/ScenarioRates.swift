import SimulationEngine
import WidgetModel

/// What a scenario's rates add up to, in closed form from the configuration alone: nothing is simulated or
/// allocated, so the limits on them refuse a hostile file in microseconds. Each figure counts only the
/// events the rates themselves make (a change, a tap, a view, a fleet event and its follow-ups, every update
/// of a burst): it is a floor under what a device handles, which the short simulation of ``WorkEstimate``
/// measures in full when the floor is small enough to make that cheap.
public struct ScenarioRates: Sendable {
  /// Events one device handles a day from the scenario's rates, at least.
  public let eventsPerDeviceDay: Double
  /// Times (follow-ups included) a replication's fleet-wide event schedule holds: it is drawn whole, for
  /// the run's days and a day before them, before the first device starts (``FleetEventSchedule``).
  public let fleetEventOccurrences: Double
  /// Per data kind with bursts (``ScheduledChanges``), in ``ScenarioConfiguration/kinds`` order: the burst
  /// updates one device holds pending at once, on average (a burst schedules all its updates when it starts).
  public let pendingBurstUpdates: [(kind: String, updates: Double)]

  public init(_ configuration: ScenarioConfiguration) {
    let seconds = Double(configuration.simulatedDays) * 86_400
    var perDay = 0.0
    var pending: [(kind: String, updates: Double)] = []
    for key in configuration.kinds {
      guard let data = configuration.widgets.first(where: { $0.dataKey == key })?.data else { continue }
      perDay += data.changes.perHour.reduce(0, +)
      guard let scheduled = data.scheduled else { continue }
      perDay += scheduled.starts.perDay * Double(scheduled.updates)
      if scheduled.updates > 1 {
        let peakPerSecond = (scheduled.starts.segments.map(\.perHour).max() ?? 0) / 3_600
        let spacing = ScenarioRates.meanSpacingSeconds(scheduled.spacing, default: 600)
        pending.append(
          (
            key,
            peakPerSecond * ScenarioRates.pendingSeconds(updates: scheduled.updates, spacing: spacing, run: seconds)
          )
        )
      }
    }
    for instance in configuration.instances {
      perDay += configuration.widgets[instance.widgetIndex].tapsPerDay
    }
    let user = configuration.user
    let awake = user.sleep.awakeHours / 24
    for views in [user.homeScreenViews, user.lockScreenViews, user.controlCenterViews, user.dynamicIslandViews] {
      perDay += views.perHour.reduce(0, +) * awake
    }
    perDay += user.appOpensPerDay + user.audioSessionsPerDay
    perDay += configuration.system.rebootsPerDay + configuration.system.environmentChangesPerDay
    for activity in configuration.liveActivities {
      perDay += activity.startsPerDay + Double(activity.startsAt.count) + activity.tokenRotationsPerDay
    }
    // The schedule spans the run's days, the day before them and, for UTC events, 14 h either side.
    let scheduledDays = Double(configuration.simulatedDays + 2)
    var occurrences = 0.0
    for event in configuration.events {
      let daily = Double(event.times.count) + (event.rate?.perHour.reduce(0, +) ?? 0)
      let withFollowUps = daily * Double(1 + event.followUps)
      perDay += withFollowUps * event.share
      occurrences += withFollowUps * scheduledDays
    }
    eventsPerDeviceDay = perDay
    fleetEventOccurrences = occurrences
    pendingBurstUpdates = pending
  }

  /// The mean time between a burst's updates, at least the 1 s the model keeps between them; infinite when
  /// the distribution's mean is.
  static func meanSpacingSeconds(_ spacing: Distribution?, default seconds: Double) -> Double {
    guard let spacing else { return seconds }
    let mean = spacing.mean
    return mean.isNaN ? .infinity : Swift.max(1, mean)
  }

  /// Seconds of pending updates one burst accounts for (Little's law: starts per second times this is the
  /// mean pending): its j-th update waits j spacings, or to the end of a run of `run` seconds, whichever is
  /// sooner.
  static func pendingSeconds(updates: Int, spacing: Double, run: Double) -> Double {
    guard updates > 1 else { return 0 }
    let later = Double(updates - 1)
    guard spacing.isFinite else { return later * run }
    // Updates 1...k wait j x spacing (k: the last before the run ends); the rest wait the whole run.
    let k = Swift.min(later, (run / spacing).rounded(.down))
    return spacing * k * (k + 1) / 2 + (later - k) * run
  }
}
