import Results
import SimulationEngine

/// One device of a fleet as drawn for a replication: its own configuration (after `fleet.vary`), its clock
/// ahead of UTC, which widgets it has, and when they were added.
public struct FleetDevice: Sendable {
  public let configuration: ScenarioConfiguration
  public let clockOffset: SimDuration
  /// By index in `widgets`.
  public let installed: [Bool]
  /// After the start of the device's first day.
  public let installTime: SimDuration
}

extension FleetDevice {
  /// Per-device draws (time zone, varied parameters, installed widgets) use this stream of the device.
  static let variationStream: UInt64 = 0xF1EE7 << 40

  /// Device `device` of replication `replication` of `configuration`'s fleet: its configuration (after
  /// `fleet.vary`), clock offset, installed widgets and install time, drawn from its own stream.
  public static func draw(_ device: Int, of configuration: ScenarioConfiguration, replication: Int) -> FleetDevice {
    let fleet = configuration.fleet
    let stream = RandomStream(
      seed: StreamSeed(
        scenarioSeed: configuration.seed, replication: UInt64(replication), entity: UInt64(device),
        stream: variationStream))
    var offset = SimDuration.zero
    if let clock = fleet.clockOffset {
      let limit = ServerLoad.maximumOffset
      offset = Swift.min(Swift.max(SimDuration(seconds: clock.sample(stream)), SimDuration.zero - limit), limit)
    }
    var mine = configuration
    for variation in fleet.variations {
      variation.parameter.apply(variation.distribution.sample(stream), to: &mine)
    }
    var installed = Array(repeating: true, count: configuration.widgets.count)
    for index in installed.indices {
      if let probability = fleet.installProbability[index] { installed[index] = stream.bernoulli(probability) }
    }
    // Drawn last, so scenarios without it draw everything else as before.
    let last = SimDuration.days(Int64(configuration.simulatedDays)) - .seconds(1)
    var installTime = SimDuration.zero
    if let distribution = fleet.installTime {
      installTime = Swift.min(Swift.max(SimDuration(seconds: distribution.sample(stream)), .zero), last)
    }
    // The fleet's default spreads, after every draw the scenario asked for.
    if fleet.devices > 1 {
      let spread = fleet.spread
      if let install = spread.install, fleet.installTime == nil, install > .zero {
        installTime = Swift.min(SimDuration(seconds: stream.uniform() * install.seconds), last)
      }
      if let sleep = spread.sleep, sleep > .zero {
        // The phone goes on its nightstand charger when its user goes to bed, and off it at waking.
        if !fleet.varies(.sleepFromShiftSeconds) {
          let shift = DeviceParameter.clockShift(normalShift(sd: sleep, stream))
          mine.user.sleep.from = mine.user.sleep.from.shifted(by: shift)
          if let window = mine.device.charging?.window {
            mine.device.charging?.window.from = window.from.shifted(by: shift)
          }
        }
        if !fleet.varies(.sleepToShiftSeconds) {
          let shift = DeviceParameter.clockShift(normalShift(sd: sleep, stream))
          mine.user.sleep.to = mine.user.sleep.to.shifted(by: shift)
          if let window = mine.device.charging?.window {
            mine.device.charging?.window.to = window.to.shifted(by: shift)
          }
        }
      }
      if let starts = spread.starts, starts > .zero {
        for index in mine.liveActivities.indices where mine.liveActivities[index].start != .pushToStart {
          let drawn = DeviceParameter.clockShift(normalShift(sd: starts, stream))
          mine.liveActivities[index].startsAt = mine.liveActivities[index].startsAt.map { $0.shifted(by: drawn) }
        }
      }
    }
    return FleetDevice(configuration: mine, clockOffset: offset, installed: installed, installTime: installTime)
  }

  /// A normal draw in seconds with mean 0 and standard deviation `sd` (positive).
  static func normalShift(sd: SimDuration, _ stream: RandomStream) -> Double {
    (try? Distribution.normal(mean: 0, sd: sd.seconds))?.sample(stream) ?? 0
  }
}
