import Results
import SimulationEngine
import WidgetModel

/// Every summary metric, documented in docs/reports.md. Per-day rates divide by the simulated days.
extension RunSummary {
  /// A count per device and day: over the devices that have the instance (`instance`), or all devices.
  static func perDay(_ value: Int, _ result: ReplicationResult, instance: Int? = nil) -> Double {
    perDay(Double(value), result, instance: instance)
  }

  static func perDay(_ value: Double, _ result: ReplicationResult, instance: Int? = nil) -> Double {
    let devices = instance.map { result.instanceDevices[$0] } ?? result.devices
    return devices > 0 ? value / Double(result.days) / Double(devices) : .nan
  }

  /// Metrics of one widget instance (the index is the instance).
  static let instanceMetrics: [Metric] = {
    // The outcomes a metric adds, listed once (not per replication).
    let reloads = ReloadOutcome.allCases.filter(\.isReload)
    let budgeted: [ReloadOutcome] = [.grantedBudget, .withheldGranted, .deferredGranted]
    var metrics: [Metric] = [
      Metric(name: "requests_per_day", unit: "requests/day") { result, instance in
        perDay(result.total(instance: instance), result, instance: instance)
      },
      Metric(name: "reloads_per_day", unit: "reloads/day") { result, instance in
        perDay(reloads.reduce(0) { $0 + result.total(instance: instance, outcome: $1) }, result, instance: instance)
      },
      Metric(name: "budgeted_reloads_per_day", unit: "reloads/day") { result, instance in
        perDay(budgeted.reduce(0) { $0 + result.total(instance: instance, outcome: $1) }, result, instance: instance)
      },
    ]
    for outcome in ReloadOutcome.allCases {
      metrics.append(
        Metric(name: "requests_per_day_\(outcome.name)", unit: "requests/day") { result, instance in
          perDay(result.total(instance: instance, outcome: outcome), result, instance: instance)
        })
    }
    metrics += [
      Metric(name: "builds_per_day", unit: "builds/day") { result, instance in
        perDay(result.builds[instance], result, instance: instance)
      },
      Metric(name: "jetsam_share", unit: "fraction", per: "build") { result, instance in
        let builds = result.builds[instance]
        return builds > 0 ? Double(result.total(instance: instance, outcome: .jetsam)) / Double(builds) : .nan
      },
      Metric(name: "views_per_day", unit: "views/day") { result, instance in
        perDay(result.staleness[instance].views, result, instance: instance)
      },
    ]
    metrics += stalenessMetrics { result, instance in result.staleness[instance] }
    metrics += [
      Metric(name: "budget_exhausted_day_share", unit: "fraction", per: "phone_day") { result, instance in
        (0..<result.days).reduce(0.0) { $0 + result.budgetExhaustedShare(day: $1, instance: instance) }
          / Double(result.days)
      },
      Metric(name: "last_budget_grant_hour", unit: "hour of day", per: "phone_day", value: meanLastGrantHour),
      Metric(name: "cpu_time_per_day", unit: "s/day") { result, instance in
        perDay(result.cpuSeconds[instance], result, instance: instance)
      },
      Metric(name: "fetches_per_day", unit: "requests/day") { result, instance in
        perDay(result.fetches[instance], result, instance: instance)
      },
      Metric(name: "fetch_bytes_per_day", unit: "bytes/day", per: "fleet") { result, instance in
        perDay(result.fetchBytes[instance], result, instance: instance)
      },
    ]
    return metrics
  }()

  /// The mean over days with a budget grant of the day's last grant hour (added in day order).
  static func meanLastGrantHour(_ result: ReplicationResult, _ instance: Int) -> Double {
    var (sum, days) = (0.0, 0)
    for day in 0..<result.days {
      guard let hour = result.lastBudgetGrantHour(day: day, instance: instance) else { continue }
      (sum, days) = (sum + hour, days + 1)
    }
    return days == 0 ? .nan : sum / Double(days)
  }

  /// What viewers saw: shares of stale and placeholder views, and the age of the data at views.
  static func stalenessMetrics(_ recorder: @escaping @Sendable (ReplicationResult, Int) -> StalenessRecorder)
    -> [Metric]
  {
    [
      Metric(name: "stale_view_share", unit: "fraction", per: "view") { result, index in
        let seen = recorder(result, index)
        return seen.views > 0 ? Double(seen.staleViews) / Double(seen.views) : .nan
      },
      Metric(name: "placeholder_view_share", unit: "fraction", per: "view") { result, index in
        let seen = recorder(result, index)
        return seen.views > 0 ? Double(seen.placeholderViews) / Double(seen.views) : .nan
      },
      Metric(name: "staleness_mean", unit: "s", per: "view") { result, index in
        let seconds = recorder(result, index).seconds
        return seconds.count > 0 ? seconds.mean : .nan
      },
      Metric(name: "staleness_p50", unit: "s", per: "view", statistic: .p50) { result, index in
        recorder(result, index).quantiles.quantile(0.5)
      },
      Metric(name: "staleness_p95", unit: "s", per: "view", statistic: .p95) { result, index in
        recorder(result, index).quantiles.quantile(0.95)
      },
      Metric(name: "staleness_max", unit: "s", per: "view", statistic: .max) { result, index in
        let seconds = recorder(result, index).seconds
        return seconds.count > 0 ? seconds.maximum : .nan
      },
    ]
  }

  /// Metrics of the app's widget push topic (target 0).
  // A WidgetKit push to a switched-off phone waits for it: never `lost`.
  static let pushMetrics: [Metric] = PushCounter.allCases.filter { $0 != .lost }.map { counter in
    Metric(name: "widget_pushes_\(counter.name)_per_day", unit: "pushes/day") { result, _ in
      perDay(result.pushTotal(target: 0, counter: counter), result)
    }
  }

  /// Energy of one subject (the index is the energy subject: instance, `widget_push` or activity).
  /// The widget instance an energy subject is (per-device figures divide by the devices that have it).
  @Sendable static func widgetInstance(_ subject: Int, _ result: ReplicationResult) -> Int? {
    subject < result.instanceCount ? subject : nil
  }

  /// Battery percentages are each phone's energy over its own capacity, averaged over the devices (a fleet
  /// may vary the capacity per device).
  static let energyMetrics: [Metric] = [
    Metric.ofEnergy(name: "joules_per_day", unit: "J/day") { result, subject, energy in
      perDay(energy.joules(subject: subject), result, instance: widgetInstance(subject, result))
    },
    Metric.ofEnergy(name: "mwh_per_day", unit: "mWh/day") { result, subject, energy in
      EnergyUnits.milliwattHours(
        perDay(energy.joules(subject: subject), result, instance: widgetInstance(subject, result)))
    },
    Metric(name: "battery_percent_per_day", unit: "%/day") { result, subject in
      perDay(result.batteryShare(subject: subject), result, instance: widgetInstance(subject, result)) * 100
    },
    Metric.ofEnergy(name: "radio_tail_share", unit: "fraction", per: "energy") { _, subject, energy in
      let total = energy.joules(subject: subject)
      return total > 0 ? energy.joules(subject: subject, component: .radioTail) / total : .nan
    },
  ]

  /// Device-wide metrics: what the app's design costs the phone, its own energy, the battery.
  static let deviceMetrics: [Metric] =
    [
      // What the phone pays for the design: every energy subject but the device's own baseline and usage
      // (widgets with their fetches and radio, WidgetKit push wake-ups, Live Activities, the app's own runs
      // with their silent-push wake-ups). The same sum as `widgets_*`, whose name undersells it; those stay
      // for the CI gates that read them.
      Metric.ofEnergy(name: "phone_joules_per_day", unit: "J/day") { result, subject, energy in
        perDay(widgetJoules(result, energy, deviceSubject: subject), result)
      },
      Metric.ofEnergy(name: "phone_mwh_per_day", unit: "mWh/day") { result, subject, energy in
        EnergyUnits.milliwattHours(perDay(widgetJoules(result, energy, deviceSubject: subject), result))
      },
      Metric(name: "phone_battery_percent_per_day", unit: "%/day") { result, subject in
        perDay(sumOverSubjects(result, excluding: subject) { result.batteryShare(subject: $0) }, result) * 100
      },
      Metric.ofEnergy(name: "device_joules_per_day", unit: "J/day") { result, subject, energy in
        perDay(energy.joules(subject: subject), result)
      },
      Metric.ofEnergy(name: "device_mwh_per_day", unit: "mWh/day") { result, subject, energy in
        EnergyUnits.milliwattHours(perDay(energy.joules(subject: subject), result))
      },
      Metric.ofEnergy(name: "widgets_joules_per_day", unit: "J/day") { result, subject, energy in
        perDay(widgetJoules(result, energy, deviceSubject: subject), result)
      },
      Metric.ofEnergy(name: "widgets_mwh_per_day", unit: "mWh/day") { result, subject, energy in
        EnergyUnits.milliwattHours(perDay(widgetJoules(result, energy, deviceSubject: subject), result))
      },
      Metric(name: "widgets_battery_percent_per_day", unit: "%/day") { result, subject in
        let share = sumOverSubjects(result, excluding: subject) { result.batteryShare(subject: $0) }
        return perDay(share, result) * 100
      },
      Metric.ofEnergy(name: "widgets_radio_tail_share", unit: "fraction", per: "energy") { result, subject, energy in
        let total = sumOverSubjects(result, excluding: subject) { energy.joules(subject: $0) }
        let tails = sumOverSubjects(result, excluding: subject) { energy.joules(subject: $0, component: .radioTail) }
        return total > 0 ? tails / total : .nan
      },
      Metric(name: "min_state_of_charge", unit: "%", statistic: .min) { result, _ in
        result.lowestStateOfCharge * 100
      },
      Metric(name: "low_power_mode_hours_per_day", unit: "h/day") { result, _ in
        result.lowPowerModeHours / Double(result.days)
      },
      Metric(name: "battery_drains_per_day", unit: "drains/day") { result, _ in perDay(result.drains, result) },
    ]

  /// Everything but the device's own baseline and usage.
  static func widgetJoules(_ result: ReplicationResult, _ energy: EnergyTotals, deviceSubject: Int) -> Double {
    sumOverSubjects(result, excluding: deviceSubject) { energy.joules(subject: $0) }
  }

  /// `value` added up over every energy subject but `excluded`, in subject order (a loop, not a filtered
  /// array: the summary runs once a replication).
  static func sumOverSubjects(_ result: ReplicationResult, excluding excluded: Int, _ value: (Int) -> Double)
    -> Double
  {
    var sum = 0.0
    for subject in 0..<result.energySubjectCount where subject != excluded { sum += value(subject) }
    return sum
  }
}

extension RunSummary {
  /// Distributions across the fleet's devices (one device: its own figures).
  static let fleetMetrics = distributionMetrics { result, _ in result.perDevice }

  /// The same across each group of phones with the same widgets (the index is the group), with the group's
  /// size: quantiles of a fleet where some phones have one widget and some two describe neither kind.
  static let deviceGroupMetrics: [Metric] =
    [
      Metric(name: "group_devices", unit: "devices", per: "run", statistic: .total) { result, group in
        Double(result.perDeviceGroup[group].reloadsPerDay.count)
      }
    ] + distributionMetrics { result, group in result.perDeviceGroup[group] }

  /// The mean and quantiles of each per-device figure of `distributions`.
  static func distributionMetrics(
    _ distributions: @escaping @Sendable (ReplicationResult, Int) -> DeviceDistributions
  ) -> [Metric] {
    let figures: [(String, String, @Sendable (DeviceDistributions) -> DeviceDistributions.Figure)] = [
      ("device_reloads_per_day", "reloads/day", { $0.reloadsPerDay }),
      ("device_staleness_p95", "s", { $0.stalenessP95 }),
      ("device_joules_per_day", "J/day", { $0.joulesPerDay }),
    ]
    var metrics: [Metric] = []
    for (name, unit, figure) in figures {
      metrics.append(
        Metric(name: "\(name)_mean", unit: unit) { result, index in figure(distributions(result, index)).mean })
      for (statistic, p) in [(SummaryStatistic.p50, 0.5), (.p95, 0.95), (.p99, 0.99)] {
        metrics.append(
          Metric(name: "\(name)_\(statistic.rawValue)", unit: unit, statistic: statistic) { result, index in
            figure(distributions(result, index)).quantiles.quantile(p)
          })
      }
    }
    return metrics
  }

  /// The host app's runs, per device and day: launches that ran by channel (granted, deferred or expired),
  /// denials by channel, fetches.
  static let appMetrics: [Metric] = {
    var metrics: [Metric] = []
    // The outcomes each metric adds, listed once (not per replication).
    let ran = AppWakeOutcome.allCases.filter(\.ran).map(\.rawValue)
    let denied = AppWakeOutcome.allCases.filter { $0.outcome == "denied" }.map(\.rawValue)
    let outcomes = AppWakeOutcome.allCases.count
    for channel in AppWakeChannel.allCases where channel != .alwaysRunning {
      let base = channel.rawValue * outcomes
      metrics.append(
        Metric.ofAppWakes(name: "app_wakes_per_day_\(channel.name)", unit: "wakes/day") { result, totals in
          perDay(ran.reduce(0) { $0 + totals[base + $1] }, result)
        })
    }
    for channel in AppWakeChannel.allCases where channel.wake.backgroundTimeLimit {
      let base = channel.rawValue * outcomes
      metrics.append(
        Metric.ofAppWakes(name: "app_wake_denials_per_day_\(channel.name)", unit: "wakes/day") { result, totals in
          perDay(denied.reduce(0) { $0 + totals[base + $1] }, result)
        })
    }
    metrics.append(
      Metric(name: "app_fetches_per_day", unit: "requests/day") { result, _ in
        perDay(AppWakeChannel.allCases.reduce(0) { $0 + result.appFetchCount(channel: $1) }, result)
      })
    return metrics
  }()

  /// What the app's servers see, scaled to the real fleet: requests per second averaged over the busiest
  /// minute and over the 99th percentile of minutes (named `..._minute`: a busiest second is far higher, see
  /// ``provisioningMetrics(bytes:sampled:)``), and daily volumes. Their old names are ``RenamedMetric``'s.
  static func serverMetrics(scale: Double) -> [Metric] {
    [
      Metric.ofServerLoad(name: "fetch_qps_busiest_minute", unit: "requests/s", per: "fleet", statistic: .peak) {
        _, totals in
        Double(totals.peakFetches) * scale / 60
      },
      Metric.ofServerLoad(name: "fetch_qps_p99_minute", unit: "requests/s", per: "fleet", statistic: .p99) {
        _, totals in
        RunSummary.quantileOfCounts(totals.busyFetches, of: totals.minuteCount, 0.99) * scale / 60
      },
      Metric.ofServerLoad(name: "fetch_requests_per_day", unit: "requests/day", per: "fleet") { result, totals in
        Double(totals.busyFetches.reduce(0, +)) * scale / Double(result.days)
      },
      Metric.ofServerLoad(name: "fetch_bytes_per_day", unit: "bytes/day", per: "fleet") { result, totals in
        totals.bytes.double * scale / Double(result.days)
      },
      Metric.ofServerLoad(name: "push_qps_busiest_minute", unit: "pushes/s", per: "fleet", statistic: .peak) {
        _, totals in
        totals.peakPushesSent(scale: scale) / 60
      },
      Metric.ofServerLoad(name: "pushes_sent_per_day", unit: "pushes/day", per: "fleet") { result, totals in
        totals.totalPushesSent(scale: scale) / Double(result.days)
      },
      Metric.ofServerLoad(name: "pushes_delivered_per_day", unit: "pushes/day", per: "fleet") { result, totals in
        Double(totals.pushesDelivered) * scale / Double(result.days)
      },
    ]
      + ServerSource.allCases.map { source in
        // Per simulated device and day (not scaled): what one phone asks of the servers, by source; a
        // fleet-wide source (broadcast channels) per day for the whole fleet.
        Metric.ofServerLoad(
          name: source.isFleetWide ? "\(source.name)_per_day" : "\(source.name)_per_device_per_day",
          unit: "requests/day", per: source.isFleetWide ? "fleet" : "phone"
        ) { result, totals in
          guard source.isFleetWide else { return perDay(Int(totals.sourceTotals[source.rawValue]), result) }
          // The run's own UTC days, without the ±14 h margin.
          let first = -ServerLoad.firstMinute
          precondition(source == .broadcast, "fleet-wide requests other than broadcasts")
          return Double(totals.broadcasts(slots: first..<(first + result.days * 1_440))) / Double(result.days)
        }
      }
      + [
        // What one phone's design asks of the servers per day, kept apart by direction: the requests the
        // servers receive (fetches, token registrations) and the pushes they send (broadcasts excepted: one
        // request serves the fleet).
        Metric.ofServerLoad(name: "requests_received_per_device_per_day", unit: "requests/day", per: "phone") {
          result, totals in
          perDay(
            ServerSource.allCases.filter { !$0.isPush }.reduce(0) { $0 + Int(totals.sourceTotals[$1.rawValue]) }, result
          )
        },
        Metric.ofServerLoad(name: "pushes_sent_per_device_per_day", unit: "pushes/day", per: "phone") {
          result, totals in
          perDay(
            ServerSource.allCases.filter { $0.isPush && !$0.isFleetWide }.reduce(0) {
              $0 + Int(totals.sourceTotals[$1.rawValue])
            }, result)
        },
      ]
  }
}
