import Results

/// The summary's metrics of Live Activities, documented in docs/reports.md.
extension RunSummary {
  /// Metrics of one Live Activity kind (the index is the kind).
  static let activityMetrics: [Metric] = {
    @Sendable func totals(_ result: ReplicationResult, _ kind: Int, _ endings: [ActivityEnding]) -> ActivityTotals {
      var sum = ActivityTotals()
      for ending in endings { sum.merge(result.activityTotals(kind: kind, ending: ending)) }
      return sum
    }
    let started = ActivityEnding.allCases.filter { !$0.isRejection }
    let rejected = ActivityEnding.allCases.filter(\.isRejection)
    let every = ActivityEnding.allCases
    func sum(_ keyPath: KeyPath<ActivityTotals, Int> & Sendable) -> @Sendable (ReplicationResult, Int) -> Double {
      { result, kind in perDay(totals(result, kind, every)[keyPath: keyPath], result) }
    }
    var metrics: [Metric] = [
      Metric(name: "activities_started_per_day", unit: "activities/day") { result, kind in
        perDay(totals(result, kind, started).attempts, result)
      },
      Metric(name: "activities_rejected_per_day", unit: "activities/day") { result, kind in
        perDay(totals(result, kind, rejected).attempts, result)
      },
      Metric(name: "updates_sent_per_day", unit: "updates/day", value: sum(\.updatesSent)),
      Metric(name: "updates_delivered_per_day", unit: "updates/day", value: sum(\.updatesDelivered)),
      Metric(name: "updates_throttled_per_day", unit: "updates/day", value: sum(\.updatesThrottled)),
      Metric(name: "updates_superseded_per_day", unit: "updates/day", value: sum(\.updatesSuperseded)),
      Metric(name: "updates_lost_per_day", unit: "updates/day", value: sum(\.updatesLost)),
      Metric(name: "updates_jetsam_per_day", unit: "updates/day", value: sum(\.updatesJetsam)),
      Metric(name: "update_throttled_share", unit: "fraction", per: "update") { result, kind in
        let all = totals(result, kind, every)
        return all.updatesSent > 0 ? Double(all.updatesThrottled) / Double(all.updatesSent) : .nan
      },
      Metric(name: "active_hours_per_activity", unit: "h", per: "activity") { result, kind in
        let all = totals(result, kind, started)
        return all.attempts > 0 ? all.activeSeconds / 3_600 / Double(all.attempts) : .nan
      },
    ]
    metrics += stalenessMetrics { result, kind in result.activityStaleness[kind] }
    metrics += [
      // Views (Lock Screen and Dynamic Island) that found a running activity past its `staleDate`.
      Metric(name: "stale_date_view_share", unit: "fraction", per: "view") { result, kind in
        let seen = result.activityViews(kind: kind)
        return seen.views > 0 ? Double(seen.pastStaleDate) / Double(seen.views) : .nan
      },
      Metric(name: "lock_screen_stale_date_view_share", unit: "fraction", per: "view") { result, kind in
        let seen = result.activityViews(kind: kind, surface: .lockScreen)
        return seen.views > 0 ? Double(seen.pastStaleDate) / Double(seen.views) : .nan
      },
      Metric(name: "dynamic_island_stale_date_view_share", unit: "fraction", per: "view") { result, kind in
        let compact = result.activityViews(kind: kind, surface: .dynamicIslandCompact)
        let expanded = result.activityViews(kind: kind, surface: .dynamicIslandExpanded)
        let views = compact.views + expanded.views
        return views > 0 ? Double(compact.pastStaleDate + expanded.pastStaleDate) / Double(views) : .nan
      },
      Metric(name: "dynamic_island_views_per_day", unit: "views/day") { result, kind in
        perDay(
          result.activityViews(kind: kind, surface: .dynamicIslandCompact).views
            + result.activityViews(kind: kind, surface: .dynamicIslandExpanded).views, result)
      },
    ]
    return metrics
  }()
}
