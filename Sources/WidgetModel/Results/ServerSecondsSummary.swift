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

  /// Nothing derived yet (a single device, or a result still being added up).
  public init() {
    provisioning = []
    herds = []
    peaks = []
  }

  /// The summary of `seconds`, the load of replication `replication` of `configuration`'s fleet.
  init(_ seconds: ServerSeconds, _ configuration: borrowing ScenarioConfiguration, replication: Int) {
    let scale = configuration.fleet.scale
    provisioning = seconds.provisioning(scale: scale)
    guard !seconds.isEmpty else {
      herds = []
      peaks = []
      return
    }
    let rule = HerdRule(configuration, replication: replication)
    herds = seconds.herds(rule)
    // Each source's mean simulated requests per second, from the figures of the stream that is that source
    // alone (scaled, but for broadcasts, which herds leave out).
    let streams = ServerDirection.allCases.count
    let provisioning = provisioning
    let means = ServerSource.allCases.map { source in
      provisioning[streams + ServerStream.partition[source.rawValue].rawValue].meanPerSecond / scale
    }
    peaks = ServerDirection.allCases.map { direction in
      PeakSecond(
        direction, provisioning[direction.rawValue], seconds, scale: scale, rule: rule, meansPerSecond: means)
    }
  }
}
