import Results
import WidgetModel

/// The capacity-planning rows: phones with each widget, the servers' load per second, fleet-wide events,
/// freshness during bursts.
extension RunSummary {
  /// How many phones have the widget: simulated (per replication) and in the real fleet they stand for.
  static func installedMetrics(scale: Double) -> [Metric] {
    [
      Metric(name: "installed_devices", unit: "devices", per: "run", statistic: .total) { result, instance in
        Double(result.instanceDevices[instance])
      },
      Metric(name: "installed_phones", unit: "phones", per: "fleet", statistic: .total) { result, instance in
        Double(result.instanceDevices[instance]) * scale
      },
    ]
  }

  /// What the servers must provision for one request stream (or one side), per second over the measured
  /// days, for the real fleet: counted when every phone is simulated, estimated from the sample otherwise
  /// (then with each estimate's interval, and the sample's own figures times the scale as `raw_` rows when
  /// `sampled`).
  ///
  /// One `stream`'s busiest second and p99 (not a side's) are not estimated from a sample: a stream of a few
  /// simulated requests a second gave estimates 100 times apart for samples of 2,000 and 23,000 phones, with
  /// intervals that held neither, and no coverage study backs them (docs/capacity.md). Their rows are blank,
  /// `ci_method` `not_estimable`; the mean and the `raw_` rows stay.
  static func provisioningMetrics(bytes: Bool, sampled: Bool, stream: Bool = false) -> [Metric] {
    let estimable = !(sampled && stream)
    @Sendable func figure(_ result: ReplicationResult, _ index: Int) -> ProvisioningFigures? {
      guard estimable else { return nil }
      return index < result.provisioning.count ? result.provisioning[index] : nil
    }
    @Sendable func counted(_ result: ReplicationResult, _ index: Int) -> ProvisioningFigures? {
      index < result.provisioning.count ? result.provisioning[index] : nil
    }
    var p99 = Metric(name: "p99_requests_per_second", unit: "requests/s", per: "fleet", statistic: .p99) {
      figure($0, $1)?.p99PerSecond ?? .nan
    }
    p99.sampled = { figure($0, $1)?.p99Interval }
    var peak = Metric(name: "peak_requests_per_second", unit: "requests/s", per: "fleet", statistic: .peak) {
      figure($0, $1)?.peakPerSecond ?? .nan
    }
    peak.sampled = { figure($0, $1)?.peakInterval }
    var metrics = [
      Metric(name: "mean_requests_per_second", unit: "requests/s", per: "fleet") {
        counted($0, $1)?.meanPerSecond ?? .nan
      },
      p99, peak,
    ]
    if bytes {
      var peakBytes = Metric(name: "peak_bytes_per_second", unit: "bytes/s", per: "fleet", statistic: .peak) {
        figure($0, $1)?.peakBytesPerSecond ?? .nan
      }
      peakBytes.sampled = { figure($0, $1)?.peakBytesInterval }
      metrics.append(peakBytes)
    }
    for index in metrics.indices.dropFirst() { metrics[index].estimable = estimable }
    guard sampled else { return metrics }
    metrics += [
      Metric(name: "raw_p99_requests_per_second", unit: "requests/s", per: "fleet", statistic: .p99) {
        counted($0, $1).map { $0.raw?.p99PerSecond ?? $0.p99PerSecond } ?? .nan
      },
      Metric(name: "raw_peak_requests_per_second", unit: "requests/s", per: "fleet", statistic: .peak) {
        counted($0, $1).map { $0.raw?.peakPerSecond ?? $0.peakPerSecond } ?? .nan
      },
    ]
    if bytes {
      metrics.append(
        Metric(name: "raw_peak_bytes_per_second", unit: "bytes/s", per: "fleet", statistic: .peak) {
          counted($0, $1).map { $0.raw?.peakBytesPerSecond ?? $0.peakBytesPerSecond ?? .nan } ?? .nan
        })
    }
    return metrics
  }

  /// A fleet-wide event's pushes: how long the server's fan-out took, and when devices got the first push
  /// after it: the median, the shares within 1, 10 and 60 minutes, the mean (dominated by phones asleep until
  /// morning), and the last simulated device (a sample's maximum: it grows with the sample).
  static let eventMetrics: [Metric] =
    [
      Metric(name: "event_fanout_seconds", unit: "s", per: "occurrence", statistic: .max) { result, index in
        result.eventDelivery[index].sends > 0 ? result.eventDelivery[index].lastSendSeconds : .nan
      },
      Metric(name: "event_delivery_median_seconds", unit: "s", per: "occurrence", statistic: .p50) {
        result, index in result.eventDelivery[index].medianDeliverySeconds
      },
    ]
    + EventDelivery.deliveryLimitsMinutes.map { minutes in
      Metric(name: "event_delivered_within_\(minutes)m_share", unit: "fraction", per: "occurrence") {
        result, index in result.eventDelivery[index].deliveredShare(withinMinutes: minutes)
      }
    }
    + [
      Metric(name: "event_delivery_mean_seconds", unit: "s", per: "occurrence") { result, index in
        result.eventDelivery[index].meanDeliverySeconds
      },
      Metric(name: "event_delivery_last_seconds", unit: "s", per: "occurrence", statistic: .max) { result, index in
        result.eventDelivery[index].lastDeliverySeconds
      },
    ]

  /// What viewers saw while a burst of the instance's data was under way (an order between its first and
  /// last update): the staleness metrics renamed `..._in_burst`, and such views per day.
  static let burstMetrics: [Metric] =
    [
      Metric(name: "views_in_burst_per_day", unit: "views/day", per: "phone_with_widget") { result, instance in
        perDay(result.burstStaleness[instance].views, result, instance: instance)
      }
    ]
    + stalenessMetrics { result, instance in result.burstStaleness[instance] }.map { metric in
      Metric(
        name: metric.name.replacing("staleness", with: "staleness_in_burst").replacing(
          "view_share", with: "view_share_in_burst"), unit: metric.unit, per: "view_in_burst",
        statistic: metric.statistic, value: metric.value)
    }
}
