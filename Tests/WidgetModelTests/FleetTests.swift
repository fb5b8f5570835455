import Fleets
import SimulationEngine
import Testing

@testable import Results
@testable import WidgetModel

@Suite("Fleets")
struct FleetTests {
  /// A small fleet with varied users, time zones, a push widget and an optional widget.
  static func fleet(devices: Int = 24, days: Int = 3) -> ScenarioConfiguration {
    var configuration = ModelFixtures.quiet(
      [
        WidgetConfiguration(
          id: "orders", kind: "Orders", timeline: TimelineConfiguration(policy: .after(.minutes(15))),
          data: DataConfiguration(changes: HourlyRate(perHour: 1), pushes: [.widget])),
        ModelFixtures.widget("extra", policy: .after(.minutes(30))),
      ], days: days)
    configuration.user.appOpensPerDay = 3
    configuration.fleet = FleetConfiguration(
      devices: devices, represents: Double(devices) * 20, clockOffset: try! .uniform(low: -8 * 3_600, high: -5 * 3_600),
      variations: [
        DeviceVariation(parameter: .homeScreenViewsPerHour, distribution: try! .lognormal(median: 6, sigma: 0.5))
      ], installProbability: [1: 0.5])
    return configuration
  }

  @Test("devices.csv's figures use each phone's own battery, as fleet.vary drew it")
  func perDeviceBattery() throws {
    var configuration = FleetTests.fleet(devices: 12, days: 1)
    configuration.fleet.variations.append(
      DeviceVariation(parameter: .batteryCapacityJoules, distribution: try .uniform(low: 40_000, high: 60_000)))
    let (_, summaries) = FleetRunner.run(configuration, replication: 0, jobs: 2, perDevice: true)
    var capacities: Set<Double> = []
    for summary in summaries {
      let drawn = FleetDevice.draw(summary.device, of: configuration, replication: 0)
      #expect(summary.batteryCapacityJoules == drawn.configuration.device.battery.capacityJoules)
      #expect(summary.batteryCapacityJoules != configuration.device.battery.capacityJoules)
      capacities.insert(summary.batteryCapacityJoules)
    }
    #expect(capacities.count == summaries.count, "every phone drew its own capacity")
  }

  @Test("one device run alone gives the same numbers as the same device inside the fleet")
  func deviceAloneMatchesFleet() throws {
    let configuration = FleetTests.fleet()
    let (_, summaries) = FleetRunner.run(configuration, replication: 0, jobs: 2, perDevice: true)
    #expect(summaries.map(\.device) == Array(0..<configuration.fleet.devices))
    for device in [0, 7, 23] {
      let drawn = FleetDevice.draw(device, of: configuration, replication: 0)
      let (offset, installed) = (drawn.clockOffset, drawn.installed)
      let alone = DeviceSimulation.run(drawn, replication: 0, device: device)
      let summary = summaries[device]
      #expect(alone.perDevice.reloadsPerDay.mean == summary.reloadsPerDay)
      #expect(alone.perDevice.joulesPerDay.mean == summary.joulesPerDay)
      #expect(alone.devices == 1)
      #expect(summary.widgetsInstalled == (installed[1] ? 2 : 1))
      #expect(abs(summary.clockOffsetHours - offset.seconds / 3_600) < 1e-9)
    }
    // The installed share follows its probability (0.5 for `extra`), and time zones spread.
    #expect(Set(summaries.map(\.widgetsInstalled)) == [1, 2])
    #expect(Set(summaries.map { Int($0.clockOffsetHours.rounded()) }).count >= 3)
  }

  @Test("jobs 1, 2 and 3 give identical aggregates")
  func jobsDoNotChangeResults() {
    let configuration = FleetTests.fleet()
    let one = FleetRunner.run(configuration, replication: 0, jobs: 1).result
    for jobs in [2, 3] {
      let other = FleetRunner.run(configuration, replication: 0, jobs: jobs).result
      #expect(other.reloads == one.reloads)
      #expect(other.energy.microjoules == one.energy.microjoules)
      #expect(other.serverLoad.fetches == one.serverLoad.fetches)
      #expect(other.serverLoad.bytes == one.serverLoad.bytes)
      #expect(other.stateOfChargePPM == one.stateOfChargePPM)
      #expect(other.staleness[0].seconds == one.staleness[0].seconds)
      #expect(other.perDevice.reloadsPerDay.mean == one.perDevice.reloadsPerDay.mean)
      #expect(other.perDevice.stalenessP95.quantiles == one.perDevice.stalenessP95.quantiles)
    }
  }

  @Test("server load adds up to the devices' own fetches and pushes")
  func serverLoadSums() {
    let configuration = FleetTests.fleet()
    let result = FleetRunner.run(configuration, replication: 0, jobs: 2).result
    let fetches = result.fetches.reduce(0, +)
    let appFetches = AppWakeChannel.allCases.map { result.appFetchCount(channel: $0) }.reduce(0, +)
    let appBytes = AppWakeChannel.allCases.map { result.appFetchByteTotals[$0.rawValue] }.reduce(0, +)
    #expect(fetches > 0 && appFetches > 0)
    #expect(Int(result.serverLoad.fetches.reduce(0, +)) == fetches + appFetches)
    #expect(result.serverLoad.bytes.reduce(0, +) == result.fetchByteTotals.reduce(0, +) + appBytes)
    var widgetFetches: Int64 = 0
    for slot in 0..<result.serverLoad.minuteCount {
      widgetFetches += result.serverLoad.requests(slot: slot, source: .widgetFetch)
    }
    #expect(Int(widgetFetches) == fetches)
    let sent = result.pushTotal(target: 0, counter: .sent)
    let delivered = result.pushTotal(target: 0, counter: .delivered)
    #expect(Int(result.serverLoad.pushesSent.reduce(0, +)) == sent)
    #expect(Int(result.serverLoad.pushesDelivered.reduce(0, +)) == delivered)
  }

  @Test("with no jitter, identical clocks and the spreads pinned every .after fetch lands in the same minutes")
  func synchronisedPeaks() {
    var configuration = ModelFixtures.quiet([ModelFixtures.widget("clock", policy: .after(.minutes(15)))], days: 2)
    configuration.budget.debug = true
    configuration.fleet = FleetConfiguration(devices: 50, represents: 1_000)
    configuration.fleet.spread = .pinned
    let result = FleetRunner.run(configuration, replication: 0, jobs: 2).result
    let busy = result.serverLoad.fetches.enumerated().filter { $0.element > 0 }
    #expect(busy.count > 100)
    for (slot, count) in busy {
      #expect(count == 50, "minute \(slot + ServerLoad.firstMinute): \(count) fetches")
      #expect((slot + ServerLoad.firstMinute) % 15 == 0)
    }
    // Time zones spread the same fetches over more minutes, each with fewer.
    configuration.fleet.clockOffset = try! .uniform(low: -3 * 3_600, high: 0)
    let spread = FleetRunner.run(configuration, replication: 0, jobs: 2).result
    #expect(spread.serverLoad.fetches.max()! < 50)
    let spreadFetches: Int64 = spread.serverLoad.fetches.reduce(0, +)
    let alignedFetches: Int64 = result.serverLoad.fetches.reduce(0, +)
    #expect(spreadFetches == alignedFetches)
  }

  @Test("varied parameters are drawn per device and clamped into range")
  func variationsApply() {
    var configuration = FleetTests.fleet(devices: 10)
    configuration.fleet.variations.append(
      DeviceVariation(parameter: .wifiProbability, distribution: try! .normal(mean: 0.5, sd: 2)))
    var probabilities: Set<Double> = []
    for device in 0..<10 {
      let mine = FleetDevice.draw(device, of: configuration, replication: 0).configuration
      let probability = mine.device.network.wifiProbability ?? -1
      #expect((0...1).contains(probability))
      probabilities.insert(probability)
      #expect(mine.user.homeScreenViews.perHour[0] > 0)
    }
    #expect(probabilities.count > 2)
  }
}
