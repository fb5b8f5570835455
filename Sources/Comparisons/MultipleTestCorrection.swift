/// How a comparison with several gates keeps its chance of a false failure at alpha.
public enum MultipleTestCorrection: String, Sendable, CaseIterable {
  /// Each gate tested at alpha: with m gates on unchanged code, up to m x alpha chance that one fails.
  case none
  /// Holm-Bonferroni step-down: the chance that any gate fails on unchanged code stays at most alpha, for
  /// any dependence between the metrics (Holm 1979), rejecting at least what Bonferroni would.
  case holm

  /// Which of `pValues` are rejected at family level `alpha`: those whose adjusted p-value is at most alpha.
  public func rejections(_ pValues: [Double], alpha: Double) -> [Bool] {
    adjusted(pValues).map { $0 <= alpha }
  }

  /// The p-values adjusted so that each is compared with alpha itself (the one figure reports print):
  /// unchanged without correction; Holm's step-down adjustment, max over the j smaller ones of
  /// min(1, (m - j + 1) p(j)), with it (rejects exactly what Holm's procedure rejects).
  public func adjusted(_ pValues: [Double]) -> [Double] {
    switch self {
    case .none:
      return pValues
    case .holm:
      var adjusted = pValues
      let order = pValues.indices.sorted { (pValues[$0], $0) < (pValues[$1], $1) }
      var running = 0.0
      for (rank, index) in order.enumerated() {
        running = Swift.max(running, Swift.min(1, Double(pValues.count - rank) * pValues[index]))
        adjusted[index] = running
      }
      return adjusted
    }
  }
}
