import SimulationEngine

/// The classic hold model for event sets (Vaucher & Duval 1975; Jones 1986): with `size` events pending,
/// repeatedly pop the earliest and push one a random increment later, so the set stays at `size`.
///
/// Increments are exponential with a mean of 1 s, drawn before timing starts (a table of 65,536 reused
/// cyclically), so the figure is the event set's own cost per pop + push, not the random draw's.
public enum HoldModelBenchmark {
  /// The pending-event counts `widgetsim bench` measures.
  public static let sizes = [16, 256, 4_096, 65_536]

  /// Nanoseconds per hold (one pop and one push) at `size` pending events, over `holds` holds.
  public static func nanosecondsPerHold(size: Int, holds: Int, seed: UInt64 = 1) -> Double {
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: seed, stream: UInt64(size)))
    let increment = try! Distribution.exponential(mean: 1e6)  // valid literal parameter
    let tableSize = 1 << 16
    var increments = [Int64](repeating: 0, count: tableSize)
    for index in 0..<tableSize {
      increments[index] = max(1, Int64(increment.sample(stream).rounded()))
    }

    var events = EventSet(capacity: size + 1)
    let kind = EventKind(rawValue: 1)
    for index in 0..<size {
      events.insert(at: SimTime(microseconds: increments[index & (tableSize - 1)]), kind: kind, target: UInt32(index))
    }
    // Warm up: let the heap reach its steady-state shape before timing.
    var checksum = runHolds(&events, count: min(holds, 4 * size + 10_000), increments: increments, kind: kind)
    let stopwatch = Stopwatch()
    checksum &+= runHolds(&events, count: holds, increments: increments, kind: kind)
    let elapsed = stopwatch.elapsedNanoseconds
    keepAlive(checksum)
    return elapsed / Double(holds)
  }

  private static func runHolds(_ events: inout EventSet, count: Int, increments: [Int64], kind: EventKind) -> UInt64 {
    let mask = increments.count - 1
    var checksum: UInt64 = 0
    for index in 0..<count {
      guard let next = events.popNext() else { break }
      checksum &+= UInt64(truncatingIfNeeded: next.time.microseconds)
      let time = SimTime(microseconds: next.time.microseconds + increments[index & mask])
      events.insert(at: time, kind: kind, target: next.target)
    }
    return checksum
  }
}
