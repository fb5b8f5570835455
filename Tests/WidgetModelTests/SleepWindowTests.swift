import SimulationEngine
import Testing

@testable import WidgetModel

/// A daily window's minutes per clock hour, worked out from its ends, are what testing each minute counts.
@Suite("Daily windows: minutes per hour")
struct SleepWindowTests {
  /// Minutes of `hour` whose first instant the window contains: the definition, minute by minute.
  private static func countedMinutes(_ window: SleepWindow, hour: Int) -> Int {
    (0..<60).filter { window.contains(SimTime.zero + .minutes(Int64(hour * 60 + $0))) }.count
  }

  /// Ends on whole minutes, on the hour, a microsecond either side of a minute, and anywhere (fixed seed).
  private static var ends: [TimeOfDay] {
    var generator = SplitMix64(state: 20_261_127)
    let minute = SimDuration.minutes(1).microseconds
    let day = SimDuration.day.microseconds
    var ends = [0, 1, minute - 1, minute, minute + 1, 60 * minute, 23 * 60 * minute, 1_439 * minute + 1, day - 1]
    for _ in 0..<40 { ends.append(Int64(generator.next() % UInt64(SimDuration.day.microseconds))) }
    for _ in 0..<20 { ends.append(Int64(generator.next() % 1_440) * minute) }
    return ends.map { TimeOfDay(sinceMidnight: SimDuration(microseconds: $0)) }
  }

  @Test("every hour of windows within a day, across midnight and empty: as counted minute by minute")
  func minutesInsideMatchesMinuteByMinute() {
    let ends = SleepWindowTests.ends
    var checked = 0
    for from in ends {
      for to in ends {
        let window = SleepWindow(from: from, to: to)
        for hour in 0..<24 {
          let counted = SleepWindowTests.countedMinutes(window, hour: hour)
          guard window.minutesInside(hour: hour) == counted else {
            Issue.record("\(from.sinceMidnight.microseconds)..<\(to.sinceMidnight.microseconds) hour \(hour)")
            return
          }
          checked += counted
        }
      }
    }
    #expect(checked > 0, "some windows hold minutes")
  }

  @Test("a night from 23:30 to 07:00: awake shares of its hours")
  func awakeShares() {
    let night = SleepWindow(from: TimeOfDay(hours: 23, minutes: 30), to: TimeOfDay(hours: 7, minutes: 0))
    #expect(night.awakeFraction(ofHour: 23) == 0.5)
    #expect(night.awakeFraction(ofHour: 3) == 0)
    #expect(night.awakeFraction(ofHour: 7) == 1)
    #expect(night.minutesInside(hour: 6) == 60)
    #expect(
      SleepWindow(from: TimeOfDay(hours: 8, minutes: 0), to: TimeOfDay(hours: 8, minutes: 0)).minutesInside(hour: 8)
        == 0)
  }

  @Test("a device's awake, charging and cellular shares of each hour: as counted minute by minute")
  func powerSystemShares() {
    let night = SleepWindow(from: TimeOfDay(hours: 23, minutes: 10), to: TimeOfDay(hours: 6, minutes: 45))
    let charger = SleepWindow(from: TimeOfDay(hours: 22, minutes: 5), to: TimeOfDay(hours: 5, minutes: 50))
    let commute = NetworkSelection.Window(
      from: TimeOfDay(hours: 7, minutes: 20), to: TimeOfDay(hours: 8, minutes: 40), network: .lte)
    let overlapping = NetworkSelection.Window(
      from: TimeOfDay(hours: 8, minutes: 0), to: TimeOfDay(hours: 9, minutes: 15), network: .wifi)
    let networks = [
      NetworkSelection(defaultNetwork: .wifi), NetworkSelection(defaultNetwork: .lte),
      NetworkSelection(defaultNetwork: .wifi, windows: [commute, overlapping]),
      NetworkSelection(defaultNetwork: .nr5g, windows: [overlapping]),
    ]
    for network in networks {
      for charging in [ChargingConfiguration(window: charger), nil] {
        let power = PowerSystem(DeviceConfiguration(charging: charging, network: network), sleep: night)
        #expect(power.awakeShareOfHour == PowerSystem.shareOfHours { !night.contains($0) })
        #expect(power.chargingShareOfHour == PowerSystem.shareOfHours { charging?.window.contains($0) ?? false })
        #expect(
          power.cellularShareOfHour == PowerSystem.shareOfHours { network.scheduled(at: $0.sinceMidnight) != .wifi })
      }
    }
  }
}
