/// Wall-clock timing for benchmark loops, from the monotonic clock.
struct Stopwatch {
  private let clock = ContinuousClock()
  private let start: ContinuousClock.Instant

  init() {
    start = clock.now
  }

  /// Nanoseconds since the stopwatch started.
  var elapsedNanoseconds: Double {
    let elapsed = clock.now - start
    let (seconds, attoseconds) = elapsed.components
    return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
  }
}

/// Keeps a computed value alive so the optimiser cannot delete the loop that produced it.
@inline(never)
func keepAlive<Value>(_ value: Value) {
  withExtendedLifetime(value) {}
}
