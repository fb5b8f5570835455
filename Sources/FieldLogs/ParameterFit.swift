/// One scenario parameter fitted from field logs (a row of `fit.csv`), or the reason it was not.
public struct ParameterFit: Sendable {
  /// The scenario key, with the figure's name where a key holds several (`user.app_opens.session.median`).
  public let key: String
  public let estimate: Double?
  public let low: Double?
  public let high: Double?
  /// The observations behind it.
  public let count: Int
  /// The estimator (and its interval), or why nothing was fitted.
  public let method: String
  /// The `--set` argument that puts the estimate into the fitted scenario (nil: it changes nothing there).
  public let override: String?
  /// Set when the logs cannot identify the parameter: the reason.
  public let refusal: String?

  public init(
    key: String, estimate: Double, low: Double, high: Double, count: Int, method: String, override: String?
  ) {
    self.key = key
    self.estimate = estimate
    self.low = low
    self.high = high
    self.count = count
    self.method = method
    self.override = override
    refusal = nil
  }

  /// A setting the fits of other rows make up (a profile of many shares): no number of its own, the `--set`
  /// argument that writes it.
  public init(key: String, count: Int, method: String, override: String) {
    self.key = key
    (estimate, low, high) = (nil, nil, nil)
    self.count = count
    self.method = method
    self.override = override
    refusal = nil
  }

  /// A parameter the logs cannot identify.
  public init(key: String, count: Int, refusal: String) {
    self.key = key
    estimate = nil
    low = nil
    high = nil
    self.count = count
    method = "not fitted"
    override = nil
    self.refusal = refusal
  }

  /// The `fit.csv` header.
  public static let columns = "key,estimate,ci95_low,ci95_high,n,method\n"
}
