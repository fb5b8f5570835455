import SimulationEngine
import WidgetModel

/// Every summary metric, documented in README.md (report columns). Per-day rates divide by the simulated days.
extension RunSummary {
  static func perDay(_ value: Int, _ result: ReplicationResult) -> Double {
    Double(value) / Double(result.days)
  }

  /// Metrics of one widget instance (the index is the instance).
  static let instanceMetrics: [Metric] = {
    var metrics: [Metric] = [
      Metric(name: "requests_per_day", unit: "requests/day") { result, instance in
        perDay(result.total(instance: instance), result)
      },
      Metric(name: "reloads_per_day", unit: "reloads/day") { result, instance in
        perDay(
          ReloadOutcome.allCases.filter(\.isReload).map { result.total(instance: instance, outcome: $0) }.reduce(0, +),
          result)
      },
      Metric(name: "budgeted_reloads_per_day", unit: "reloads/day") { result, instance in
        let budgeted: [ReloadOutcome] = [.grantedBudget, .withheldGranted, .deferredGranted]
        return perDay(budgeted.map { result.total(instance: instance, outcome: $0) }.reduce(0, +), result)
      },
    ]
    for outcome in ReloadOutcome.allCases {
      metrics.append(
        Metric(name: "requests_per_day_\(outcome.name)", unit: "requests/day") { result, instance in
          perDay(result.total(instance: instance, outcome: outcome), result)
        })
    }
    metrics += [
      Metric(name: "builds_per_day", unit: "builds/day") { result, instance in perDay(result.builds[instance], result)
      },
      Metric(name: "jetsam_share", unit: "fraction") { result, instance in
        let builds = result.builds[instance]
        return builds > 0 ? Double(result.total(instance: instance, outcome: .jetsam)) / Double(builds) : .nan
      },
      Metric(name: "views_per_day", unit: "views/day") { result, instance in
        perDay(result.staleness[instance].views, result)
      },
    ]
    metrics += stalenessMetrics { result, instance in result.staleness[instance] }
    metrics += [
      Metric(name: "budget_exhausted_day_share", unit: "fraction") { result, instance in
        let days = (0..<result.days).filter { result.budgetExhausted(day: $0, instance: instance) }.count
        return Double(days) / Double(result.days)
      },
      Metric(name: "last_budget_grant_hour", unit: "hour of day") { result, instance in
        let hours = (0..<result.days).compactMap { result.lastBudgetGrantHour(day: $0, instance: instance) }
        return hours.isEmpty ? .nan : hours.reduce(0, +) / Double(hours.count)
      },
      Metric(name: "cpu_time_per_day", unit: "s/day") { result, instance in
        result.cpuSeconds[instance] / Double(result.days)
      },
      Metric(name: "fetches_per_day", unit: "requests/day") { result, instance in
        perDay(result.fetches[instance], result)
      },
      Metric(name: "fetch_bytes_per_day", unit: "bytes/day") { result, instance in
        result.fetchBytes[instance] / Double(result.days)
      },
    ]
    return metrics
  }()

  /// What viewers saw: shares of stale and placeholder views, and the age of the data at views.
  static func stalenessMetrics(_ recorder: @escaping @Sendable (ReplicationResult, Int) -> StalenessRecorder)
    -> [Metric]
  {
    [
      Metric(name: "stale_view_share", unit: "fraction") { result, index in
        let seen = recorder(result, index)
        return seen.views > 0 ? Double(seen.staleViews) / Double(seen.views) : .nan
      },
      Metric(name: "placeholder_view_share", unit: "fraction") { result, index in
        let seen = recorder(result, index)
        return seen.views > 0 ? Double(seen.placeholderViews) / Double(seen.views) : .nan
      },
      Metric(name: "staleness_mean", unit: "s") { result, index in
        let seconds = recorder(result, index).seconds
        return seconds.count > 0 ? seconds.mean : .nan
      },
      Metric(name: "staleness_p50", unit: "s") { result, index in recorder(result, index).quantiles.quantile(0.5) },
      Metric(name: "staleness_p95", unit: "s") { result, index in recorder(result, index).quantiles.quantile(0.95) },
      Metric(name: "staleness_max", unit: "s") { result, index in
        let seconds = recorder(result, index).seconds
        return seconds.count > 0 ? seconds.maximum : .nan
      },
    ]
  }

  /// Metrics of the app's widget push topic (target 0).
  static let pushMetrics: [Metric] = PushCounter.allCases.map { counter in
    Metric(name: "widget_pushes_\(counter.name)_per_day", unit: "pushes/day") { result, _ in
      perDay(result.pushTotal(target: 0, counter: counter), result)
    }
  }

  /// Energy of one subject (the index is the energy subject: instance, `widget_push` or activity).
  static func energyMetrics(batteryJoules: Double) -> [Metric] {
    [
      Metric(name: "joules_per_day", unit: "J/day") { result, subject in
        result.totalJoules(subject: subject) / Double(result.days)
      },
      Metric(name: "battery_percent_per_day", unit: "%/day") { result, subject in
        result.totalJoules(subject: subject) / Double(result.days) / batteryJoules * 100
      },
      Metric(name: "radio_tail_share", unit: "fraction") { result, subject in
        let total = result.totalJoules(subject: subject)
        return total > 0 ? result.totalJoules(subject: subject, component: .radioTail) / total : .nan
      },
    ]
  }

  /// Device-wide metrics: its own energy, what all widgets and activities cost, the battery.
  static func deviceMetrics(batteryJoules: Double) -> [Metric] {
    [
      Metric(name: "device_joules_per_day", unit: "J/day") { result, subject in
        result.totalJoules(subject: subject) / Double(result.days)
      },
      Metric(name: "widgets_joules_per_day", unit: "J/day") { result, subject in
        widgetJoules(result, deviceSubject: subject) / Double(result.days)
      },
      Metric(name: "widgets_battery_percent_per_day", unit: "%/day") { result, subject in
        widgetJoules(result, deviceSubject: subject) / Double(result.days) / batteryJoules * 100
      },
      Metric(name: "widgets_radio_tail_share", unit: "fraction") { result, subject in
        let subjects = (0..<result.energySubjectCount).filter { $0 != subject }
        let total = subjects.reduce(0.0) { $0 + result.totalJoules(subject: $1) }
        let tails = subjects.reduce(0.0) { $0 + result.totalJoules(subject: $1, component: .radioTail) }
        return total > 0 ? tails / total : .nan
      },
      Metric(name: "min_state_of_charge", unit: "%") { result, _ in (result.stateOfCharge.min() ?? .nan) * 100 },
      Metric(name: "low_power_mode_hours_per_day", unit: "h/day") { result, _ in
        Double(result.lowPowerMode.filter { $0 }.count) / Double(result.days)
      },
      Metric(name: "battery_drains_per_day", unit: "drains/day") { result, _ in perDay(result.drains, result) },
    ]
  }

  /// Everything but the device's own baseline and usage.
  static func widgetJoules(_ result: ReplicationResult, deviceSubject: Int) -> Double {
    (0..<result.energySubjectCount).filter { $0 != deviceSubject }.reduce(0.0) { $0 + result.totalJoules(subject: $1) }
  }

  /// Metrics of one Live Activity kind (the index is the kind).
  static let activityMetrics: [Metric] = {
    @Sendable func records(_ result: ReplicationResult, _ kind: Int) -> [ActivityRecord] {
      result.activities.filter { $0.definition == kind }
    }
    func sum(_ keyPath: KeyPath<ActivityRecord, Int> & Sendable) -> @Sendable (ReplicationResult, Int) -> Double {
      { result, kind in perDay(records(result, kind).reduce(0) { $0 + $1[keyPath: keyPath] }, result) }
    }
    var metrics: [Metric] = [
      Metric(name: "activities_started_per_day", unit: "activities/day") { result, kind in
        perDay(records(result, kind).filter { $0.rejection == nil }.count, result)
      },
      Metric(name: "activities_rejected_per_day", unit: "activities/day") { result, kind in
        perDay(records(result, kind).filter { $0.rejection != nil }.count, result)
      },
      Metric(name: "updates_sent_per_day", unit: "updates/day", value: sum(\.updatesSent)),
      Metric(name: "updates_delivered_per_day", unit: "updates/day", value: sum(\.updatesDelivered)),
      Metric(name: "updates_throttled_per_day", unit: "updates/day", value: sum(\.updatesThrottled)),
      Metric(name: "updates_superseded_per_day", unit: "updates/day", value: sum(\.updatesSuperseded)),
      Metric(name: "updates_jetsam_per_day", unit: "updates/day", value: sum(\.updatesJetsam)),
      Metric(name: "update_throttled_share", unit: "fraction") { result, kind in
        let all = records(result, kind)
        let sent = all.reduce(0) { $0 + $1.updatesSent }
        return sent > 0 ? Double(all.reduce(0) { $0 + $1.updatesThrottled }) / Double(sent) : .nan
      },
      Metric(name: "active_hours_per_activity", unit: "h") { result, kind in
        let started = records(result, kind).filter { $0.rejection == nil }
        let end = SimTime.zero + .days(Int64(result.days))
        let total = started.reduce(0.0) { $0 + $1.activeSeconds(simulationEnd: end) }
        return started.isEmpty ? .nan : total / 3_600 / Double(started.count)
      },
    ]
    metrics += stalenessMetrics { result, kind in result.activityStaleness[kind] }
    return metrics
  }()
}
