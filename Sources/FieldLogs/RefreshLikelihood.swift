import CGSL

/// The likelihood of Background App Refresh latenesses under widgetsim's rule: lateness exponential with
/// mean `delay × f(r, o)`, `f = max(1, r / o)` for a phone opened `o` times a day (the 7 days before the
/// request) and reference `r`; exact values and lower bounds (right-censored). Sorted by `o` with prefix
/// sums, the log-likelihood at any (delay, r) costs one binary search:
///
///     log L = -n log(delay) - sum over exact of log f - (sum over all of x / f) / delay
///
/// where, for the runs with o < r, f = r / o: sum of x / f = (sum of x o) / r, sum of log f = k log r -
/// sum of log o.
struct RefreshLikelihood {
  /// Opens a day, ascending.
  let opens: [Double]
  /// Prefix sums in that order: of x (all), of x o (all), of exact flags, of log o over exact ones.
  let sumX: [Double]
  let sumXO: [Double]
  let exactCount: [Double]
  let sumLogO: [Double]
  let exact: Double

  init(_ runs: [FieldSample.RefreshLateness]) {
    let sorted = runs.filter { $0.opensPerDay > 0 }.sorted { $0.opensPerDay < $1.opensPerDay }
    opens = sorted.map(\.opensPerDay)
    var (x, xo, k, logs) = ([0.0], [0.0], [0.0], [0.0])
    for run in sorted {
      x.append(x.last! + run.seconds)
      xo.append(xo.last! + run.seconds * run.opensPerDay)
      k.append(k.last! + (run.exact ? 1 : 0))
      logs.append(logs.last! + (run.exact ? log(run.opensPerDay) : 0))
    }
    (sumX, sumXO, exactCount, sumLogO) = (x, xo, k, logs)
    exact = k.last!
  }

  /// How many phones-runs have o below `r`.
  func below(_ r: Double) -> Int {
    var (low, high) = (0, opens.count)
    while low < high {
      let middle = (low + high) / 2
      if opens[middle] < r { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// (sum of x / f, sum over exact of log f) at reference `r`.
  func sums(_ r: Double) -> (scaled: Double, logFactors: Double) {
    let split = below(r)
    let scaled = (sumX.last! - sumX[split]) + (r > 0 ? sumXO[split] / r : 0)
    let logFactors = exactCount[split] * (r > 0 ? log(r) : 0) - sumLogO[split]
    return (scaled, logFactors)
  }

  func logLikelihood(delay: Double, reference r: Double) -> Double {
    let (scaled, logFactors) = sums(r)
    return -exact * log(delay) - logFactors - scaled / delay
  }

  /// The delay that maximises the likelihood at reference `r`, and the likelihood there (the profile).
  func profile(reference r: Double) -> (delay: Double, logLikelihood: Double) {
    let (scaled, logFactors) = sums(r)
    let delay = scaled / exact
    return (delay, -exact * log(delay) - logFactors - exact)
  }

  /// References to search: log-spaced from a tenth of the fewest opens to ten times the most.
  func grid(points: Int = 2_000) -> [Double] {
    guard let first = opens.first, let last = opens.last else { return [] }
    let (low, high) = (log(first / 10), log(last * 10))
    return (0..<points).map { exp(low + (high - low) * Double($0) / Double(points - 1)) }
  }
}
