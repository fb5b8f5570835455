/// What a fleet replication's per-second server load says once all its devices are in: the provisioning
/// figures of what the servers receive, of what they send and of every stream; the herds; and each side's
/// busiest second. Derived from the load, never added up: a merged or absorbed result is summarised again.
public struct ServerSecondsSummary: Sendable {
  /// In ``ServerSeconds/provisioning(scale:)`` order: received, sent, then every ``ServerStream``.
  public let provisioning: [ProvisioningFigures]
  /// Seconds in which many phones made the same request (``ServerSeconds/herds(_:)``).
  public let herds: [Herd]
  /// The busiest second of what the servers receive and of what they send, in ``ServerDirection`` order.
  public let peaks: [PeakSecond]
  /// When each simulated device stands for more than one phone: the fitted fleet rates, in
  /// ``provisioning`` order (nil where a figure is counted or has no request).
  let estimates: [SampledLoadEstimate?]

  /// Nothing derived yet (a single device, or a result still being added up).
  public init() {
    provisioning = []
    herds = []
    peaks = []
    estimates = []
  }

  /// Whether the per-second figures are the whole fleet's estimated from a sample (``SampledLoadEstimate``),
  /// not counted.
  public var isEstimated: Bool { estimates.contains { $0 != nil } }

  /// The whole fleet's expected requests of `source` in `second`, as fitted from the sample; nil when they
  /// are counted (every phone simulated, or a broadcast).
  public func estimatedRequests(second: Int, source: ServerSource) -> Double? {
    let index = ServerDirection.allCases.count + ServerStream.partition[source.rawValue].rawValue
    guard isEstimated, !source.isFleetWide, index < estimates.count else { return nil }
    return estimates[index]?.rate(at: second) ?? 0
  }

  /// The whole fleet's expected bytes fetched in `second`, as fitted from the sample; nil when counted.
  public func estimatedBytes(second: Int) -> Double? {
    guard isEstimated, let received = estimates.first else { return nil }
    return received?.bytesRate(at: second)
  }

  /// The summary of `seconds`, a fleet's load measured on a sample of phones each standing for `scale`: the
  /// fleet's fan-out windows when it is sampled, its herd rule (nil when there is no load per second), and
  /// the most its phones can make in a second, and how many phones it simulated.
  package init(
    _ seconds: ServerSeconds, scale: Double, fanOuts: FanOutWindows?, rule: HerdRule?, limits: FleetLoadLimits? = nil,
    phones: Int? = nil
  ) {
    (provisioning, estimates) = seconds.estimatedProvisioning(
      scale: scale, fanOuts: fanOuts, rule: rule, limits: limits, phones: phones)
    guard !seconds.isEmpty, let rule else {
      herds = []
      peaks = []
      return
    }
    herds = seconds.herds(rule)
    // Each source's mean simulated requests per second, from the figures of the stream that is that source
    // alone (scaled, but for broadcasts, which herds leave out).
    let streams = ServerDirection.allCases.count
    let provisioning = provisioning
    let means = ServerSource.allCases.map { source in
      provisioning[streams + ServerStream.partition[source.rawValue].rawValue].meanPerSecond / scale
    }
    let estimates = estimates
    let fitted: [[Double]]? =
      estimates.contains { $0 != nil }
      ? ServerDirection.allCases.map { direction in
        let second = provisioning[direction.rawValue].peakSecond
        return ServerSource.allCases.map { source in
          source.isFleetWide
            ? Double(seconds.requests(second: second, source: source))
            : estimates[streams + ServerStream.partition[source.rawValue].rawValue]?.rate(at: second) ?? 0
        }
      } : nil
    peaks = ServerDirection.allCases.map { direction in
      PeakSecond(
        direction, provisioning[direction.rawValue], seconds, scale: scale, rule: rule, meansPerSecond: means,
        estimatedBySource: fitted?[direction.rawValue])
    }
  }
}
