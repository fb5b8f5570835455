import ResultStorage

extension CountHistogram {
  /// The figures with every count times `factor`.
  func figures(_ name: String, factor: Double, peakBytes: Double?) -> ProvisioningFigures {
    let values = scaledCounts(factor)
    return ProvisioningFigures(
      stream: name, meanPerSecond: seconds > 0 ? Double(sum) * factor / Double(seconds) : .nan,
      p99PerSecond: CountHistogram.p99(values, total: seconds), peakPerSecond: Double(peak.count) * factor,
      peakSecond: peak.second, peakBytesPerSecond: peakBytes)
  }
}
