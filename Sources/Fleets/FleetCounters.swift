import Synchronization
import WidgetModel

/// What a fleet's threads share while they run: devices done, events handled, whether a stop was asked for,
/// and the progress callback, called at most every 250 ms (and once at the end).
final class FleetCounters: Sendable {
  let devices: Int
  let progress: (@Sendable (FleetProgress) -> Void)?
  let done = Atomic<Int>(0)
  let stopped = Atomic<Bool>(false)
  let events = Atomic<UInt64>(0)
  let lastReport = Atomic<Int64>(0)
  let clock = ContinuousClock()
  let start: ContinuousClock.Instant

  init(devices: Int, progress: (@Sendable (FleetProgress) -> Void)?) {
    self.devices = devices
    self.progress = progress
    start = clock.now
  }

  /// A device finished after handling `handled` events.
  func deviceFinished(events handled: UInt64) {
    let finished = done.wrappingAdd(1, ordering: .relaxed).newValue
    let total = events.wrappingAdd(handled, ordering: .relaxed).newValue
    guard let progress else { return }
    let elapsed = clock.now - start
    let micros = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
    let previous = lastReport.load(ordering: .relaxed)
    if micros - previous >= 250_000 || finished == devices,
      lastReport.compareExchange(expected: previous, desired: micros, ordering: .relaxed).exchanged
    {
      progress(
        FleetProgress(devicesDone: finished, devices: devices, events: total, elapsedSeconds: Double(micros) / 1e6))
    }
  }
}
