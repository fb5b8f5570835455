import SimulationEngine
import Statistics
import Testing

@testable import Results
@testable import WidgetModel

/// The device's one facade onto the result, driven without a simulation: each write lands where its name
/// says, and the warm-up's scratch result takes the writes while it is in.
@Suite("Device recorder")
struct DeviceRecorderTests {
  static func recorder(days: Int = 2) -> DeviceRecorder {
    let device = DeviceConfiguration(battery: BatteryConfiguration(capacityJoules: 40_000), charging: nil)
    let night = SleepWindow(from: TimeOfDay(hours: 23, minutes: 0), to: TimeOfDay(hours: 7, minutes: 0))
    return DeviceRecorder(
      result: ReplicationResult(replication: 0, days: days, instanceCount: 2), power: PowerSystem(device, sleep: night),
      record: DeviceRecord(measuredHours: 0..<days * 24))
  }

  @Test("a view's staleness goes to its instance, and to the burst figures only in a burst")
  func staleness() {
    var recorder = Self.recorder()
    let sketch = QuantileSketch()
    let staleness = SimDuration.minutes(20)
    recorder.recordStaleness(instance: 1, staleness, bucket: sketch.bucket(of: staleness.seconds), inBurst: false)
    recorder.recordStaleness(instance: 1, staleness, bucket: sketch.bucket(of: staleness.seconds), inBurst: true)
    let age = SimDuration.hours(30)
    recorder.recordPlaceholder(instance: 0, age: age, bucket: sketch.bucket(of: age.seconds), inBurst: true)
    #expect(recorder.result.staleness[1].views == 2 && recorder.result.burstStaleness[1].views == 1)
    #expect(
      recorder.result.staleness[0].placeholderViews == 1 && recorder.result.burstStaleness[0].placeholderViews == 1)
    #expect(recorder.result.staleness[0].views == 1 && recorder.result.staleness[1].placeholderViews == 0)
  }

  @Test("an hour's budget sample goes to its hour and instance, in thousandths")
  func budget() {
    var recorder = Self.recorder()
    recorder.recordBudget(hourIndex: 30, instance: 1, remaining: 2.5)
    let cell = recorder.result.byInstance.index(30, 1)
    #expect(recorder.result.budgetMilli[cell] == 2_500)
    #expect(recorder.result.budgetMilli.enumerated().allSatisfy { $0.offset == cell || $0.element == 0 })
  }

  @Test("while the warm-up's scratch is in, writes go to it; exchanged back, the aggregate has none of them")
  func warmupScratch() {
    var recorder = Self.recorder(days: 2)
    var held = ReplicationResult(replication: 0, days: 1, instanceCount: 2)
    recorder.exchangeResult(&held)
    #expect(recorder.days == 1 && held.days == 2)
    recorder.countAppFetch(.backgroundRefresh, bytes: 1_000)
    recorder.recordBudget(hourIndex: 3, instance: 0, remaining: 1)
    recorder.exchangeResult(&held)
    #expect(recorder.days == 2 && held.days == 1)
    #expect(held.appFetches[AppWakeChannel.backgroundRefresh.rawValue] == 1)
    #expect(recorder.result.appFetches.allSatisfy { $0 == 0 } && recorder.result.budgetMilli.allSatisfy { $0 == 0 })
  }
}
