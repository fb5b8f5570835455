/// How a comparison with several gates keeps its chance of a false failure at alpha.
public enum MultipleTestCorrection: String, Sendable, CaseIterable {
  /// Each gate tested at alpha: with m gates on unchanged code, up to m x alpha chance that one fails.
  case none
  /// Holm-Bonferroni step-down: the chance that any gate fails on unchanged code stays at most alpha, for
  /// any dependence between the metrics (Holm 1979), rejecting at least what Bonferroni would.
  case holm

  /// Which of `pValues` are rejected at family level `alpha`.
  public func rejections(_ pValues: [Double], alpha: Double) -> [Bool] {
    switch self {
    case .none:
      return pValues.map { $0 <= alpha }
    case .holm:
      var rejected = [Bool](repeating: false, count: pValues.count)
      let order = pValues.indices.sorted { (pValues[$0], $0) < (pValues[$1], $1) }
      for (rank, index) in order.enumerated() {
        guard pValues[index] <= alpha / Double(pValues.count - rank) else { break }
        rejected[index] = true
      }
      return rejected
    }
  }
}
