import SimulationEngine
import Statistics

extension SampledLoadEstimate {
  /// How much the sample's rate varies within its fitted blocks beyond chance, as a dispersion the whole
  /// fleet's counts would add: `scale * v / m`, where `v` is the variance of the sample's counts about their
  /// blocks' rates less the share of it the dispersion accounts for (`D m`: from successive seconds, which
  /// a rate that moves over many seconds leaves out), and `m` the mean count; seconds `skipped` (shared, a
  /// fan-out's) left out. A rate that moves within a block (the fetches a data change sets off over the
  /// following minute, on every phone at once) moves the whole fleet's count `scale` times as much as the
  /// sample's, and more than the fit can show in a sample whose seconds hold a request or two: the fleet's
  /// quantiles are then wider than the fit's. Zero where the counts vary no more than chance.
  static func unresolvedDispersion(
    _ counts: UnsafeBufferPointer<UInt32>, blocks: [RateBlock], skipped: [Bool]?, dispersion: Double, scale: Double
  ) -> Double {
    var squares = 0.0
    var blockSquares = 0.0
    var total = 0.0
    var seconds = 0
    for block in blocks where block.observed > 0 {
      for second in block.start..<(block.start + block.seconds) where !(skipped?[second] ?? false) {
        let count = Double(counts[second])
        squares += count * count
      }
      blockSquares += Double(block.total) * Double(block.total) / Double(block.observed)
      total += Double(block.total)
      seconds += block.observed
    }
    let freedom = seconds - blocks.count
    guard freedom > 0, total > 0 else { return 0 }
    let mean = total / Double(seconds)
    let excess = (squares - blockSquares) / Double(freedom) - dispersion * mean
    return Swift.max(0, scale * excess / mean)
  }
}
