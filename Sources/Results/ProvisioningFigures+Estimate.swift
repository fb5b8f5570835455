extension ProvisioningFigures {
  /// The figures `estimate` gives for the whole fleet, `extra` added (the broadcasts, counted), with the
  /// sample's own (`counted`, scaled) kept as ``raw``.
  init(
    _ estimate: SampledLoadEstimate, counted figure: ProvisioningFigures, adding extra: (p99: Double, peak: Double),
    peakBytes: (value: Double, interval: SampledInterval)?
  ) {
    self.init(
      stream: figure.stream, meanPerSecond: figure.meanPerSecond, p99PerSecond: estimate.p99 + extra.p99,
      peakPerSecond: estimate.peak + extra.peak, peakSecond: estimate.peakSecond,
      peakBytesPerSecond: peakBytes?.value)
    raw = RawFigures(
      p99PerSecond: figure.p99PerSecond, peakPerSecond: figure.peakPerSecond, peakSecond: figure.peakSecond,
      peakBytesPerSecond: figure.peakBytesPerSecond)
    p99Interval = estimate.p99Interval.shifted(by: extra.p99)
    peakInterval = estimate.peakInterval.shifted(by: extra.peak)
    peakBytesInterval = peakBytes?.interval
  }

  /// These figures, each estimate held to what the whole fleet can receive in a second (``FleetLoadLimits``,
  /// with `largestResponse` for the bytes), ``heldToLimit`` when one had to be.
  func held(to limits: FleetLoadLimits, largestResponse: Double) -> ProvisioningFigures {
    let most = limits.receivedPerSecond
    let mostBytes = limits.bytesPerSecond(largestResponse: largestResponse)
    let over =
      p99PerSecond > most || peakPerSecond > most || (peakBytesPerSecond.map { $0 > mostBytes } ?? false)
    guard over else { return self }
    var held = ProvisioningFigures(
      stream: stream, meanPerSecond: meanPerSecond, p99PerSecond: Swift.min(p99PerSecond, most),
      peakPerSecond: Swift.min(peakPerSecond, most), peakSecond: peakSecond,
      peakBytesPerSecond: peakBytesPerSecond.map { Swift.min($0, mostBytes) })
    held.raw = raw
    held.p99Interval = p99Interval?.held(to: most)
    held.peakInterval = peakInterval?.held(to: most)
    held.peakBytesInterval = peakBytesInterval?.held(to: mostBytes)
    held.heldToLimit = true
    return held
  }
}

extension SampledInterval {
  func held(to most: Double) -> SampledInterval {
    SampledInterval(low: Swift.min(low, most), high: Swift.min(high, most), samplingHalfWidth: samplingHalfWidth)
  }

  func shifted(by amount: Double) -> SampledInterval {
    SampledInterval(low: low + amount, high: high + amount, samplingHalfWidth: samplingHalfWidth)
  }
}
