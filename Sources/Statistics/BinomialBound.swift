import CGSL
import SimulationEngine

/// The Clopper-Pearson lower confidence bound of a binomial proportion: the share of successes that, at
/// `level`, the true probability is at least.
public enum BinomialBound {
  public static func lower(successes: Int, trials: Int, level: Double = 0.95) -> Double {
    GSL.configure()
    guard successes > 0 else { return 0 }
    return gsl_cdf_beta_Pinv(1 - level, Double(successes), Double(trials - successes + 1))
  }
}
