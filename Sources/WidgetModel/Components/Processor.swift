import Results
import SimulationEngine

/// The CPU as an energy component: a build costs active power x CPU time, and waking the device for it
/// costs the awake overhead, unless the device is still awake from an earlier build (or the app is in the
/// foreground).
struct Processor {
  let power: DevicePowerConfiguration
  /// The device stays awake after a build until then.
  private var awakeUntil = SimTime.zero

  init(power: DevicePowerConfiguration) {
    self.power = power
  }

  /// `seconds` of CPU for `subject` now, booked as `component` (`cpu` for builds, `app_cpu` for the app's
  /// runs), plus the awake overhead unless the device is awake already.
  mutating func bookBuild(
    cpuSeconds seconds: Double, subject: Int, at now: SimTime, appInForeground: Bool,
    component: EnergyComponent = .cpu, _ energy: inout some EnergyRecording
  ) {
    let hour = now.hourIndex
    if now >= awakeUntil && !appInForeground {
      energy.book(
        power.cpuActiveWatts * seconds, power.wakeWatts * power.wakeSeconds, hourIndex: hour, subject: subject,
        components: (component, component))
    } else {
      energy.book(power.cpuActiveWatts * seconds, hourIndex: hour, subject: subject, component: component)
    }
    awakeUntil = Swift.max(awakeUntil, now + SimDuration(seconds: seconds + power.wakeSeconds))
  }
}

extension DevicePowerConfiguration {
  /// Rendering `entries` timeline entries (or one Live Activity update).
  func bookRender(entries: Int, subject: Int, at now: SimTime, _ energy: inout some EnergyRecording) {
    energy.book(
      renderWatts * renderSecondsPerEntry * Double(entries), hourIndex: now.hourIndex, subject: subject,
      component: .render)
  }

  /// Waking for a delivered push.
  func bookPushWake(subject: Int, at now: SimTime, _ energy: inout some EnergyRecording) {
    energy.book(pushWakeWatts * pushWakeSeconds, hourIndex: now.hourIndex, subject: subject, component: .pushWake)
  }
}
