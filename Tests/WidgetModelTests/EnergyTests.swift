import SimulationEngine
import Testing

@testable import Results
@testable import WidgetModel

@Suite("Energy components")
struct EnergyTests {
  static let lte = RadioConfiguration.lte

  /// One widget that reloads once (widget added at 00:00) on LTE: 0.3 s CPU at 500 mW, a 30 KB fetch.
  static func singleReload(widgets: Int = 1) -> ScenarioConfiguration {
    var configuration = ModelFixtures.quiet(
      (0..<widgets).map { ModelFixtures.widget("w\($0)", policy: .never) }, days: 1)
    for index in configuration.widgets.indices {
      configuration.widgets[index].build = BuildConfiguration(
        cpuSeconds: try! .constant(0.3), fetchProbability: 1, fetchBytes: try! .constant(30_000),
        memoryBytes: try! .constant(10e6))
    }
    configuration.device.network = NetworkSelection(defaultNetwork: .lte)
    configuration.device.power.wakeSeconds = 0
    configuration.device.power.cpuActiveWatts = 0.5
    return configuration
  }

  static var singleRadioJoules: Double {
    let seconds = 30_000.0 * 8 / lte.throughputBitsPerSecond
    return lte.promotionWatts * lte.promotionSeconds + lte.transferWatts * seconds + lte.tailWatts * lte.tailSeconds
  }

  @Test("LTE, one reload: CPU 0.15 J; radio = promotion + transfer + full tail, to the micro-joule")
  func singleReloadClosedForm() {
    let result = ScenarioRunner.runReplication(EnergyTests.singleReload(), replication: 0)
    #expect(result.builds[0] == 1)
    #expect(abs(result.totalJoules(subject: 0, component: .cpu) - 0.15) < 1e-6)
    let seconds = 30_000.0 * 8 / 10e6
    #expect(abs(result.totalJoules(subject: 0, component: .radioPromotion) - 1.21 * 0.26) < 1e-6)
    #expect(abs(result.totalJoules(subject: 0, component: .radioActive) - (1.2 + 0.052 * 10) * seconds) < 1e-6)
    #expect(abs(result.totalJoules(subject: 0, component: .radioTail) - 1.06 * 10.1) < 1e-6)
    #expect(abs(result.totalJoules(subject: 0, component: .render) - 0.5 * 0.15) < 1e-6)
    let radio = [EnergyComponent.radioPromotion, .radioActive, .radioTail].reduce(0.0) {
      $0 + result.totalJoules(subject: 0, component: $1)
    }
    #expect(abs(radio - EnergyTests.singleRadioJoules) < 1e-6)
  }

  @Test("two transfers 2 s apart share one promotion and one extended tail; 60 s apart cost twice one")
  func sharedRadio() {
    let radio = EnergyTests.lte
    let transferSeconds = 30_000.0 * 8 / radio.throughputBitsPerSecond
    func cost(apart seconds: Double) -> Double {
      var state = RadioState.initial
      var recording = LedgerRecording(ledger: EnergyLedger(hours: 1, subjectCount: 1))
      _ = state.transfer(bytes: 30_000, subject: 0, at: .zero, radio: radio, energy: &recording)
      _ = state.transfer(
        bytes: 30_000, subject: 0, at: SimTime.zero + SimDuration(seconds: seconds), radio: radio, energy: &recording)
      state.cut(at: SimTime.zero + .minutes(10), radio: radio, energy: &recording)
      return Double(recording.ledger.microjoules.reduce(0, +)) / 1e6
    }
    let single = EnergyTests.singleRadioJoules
    let close = cost(apart: 2)
    // One promotion, two transfers, the first tail from its end to 2 s, then one full tail.
    let firstTail = 2 - radio.promotionSeconds - transferSeconds
    let expected =
      radio.promotionWatts * radio.promotionSeconds + 2 * radio.transferWatts * transferSeconds
      + radio.tailWatts * (firstTail + radio.tailSeconds)
    #expect(abs(close - expected) < 1e-5)
    #expect(close < 2 * single)
    #expect(abs(cost(apart: 60) - 2 * single) < 1e-6)
  }

  @Test("the radio's tail: pending for the last transfer's subject, booked once it runs out or is cut, then idle")
  func radioTail() {
    let radio = EnergyTests.lte
    var state = RadioState.initial
    var recording = LedgerRecording(ledger: EnergyLedger(hours: 1, subjectCount: 2))
    #expect(state == .initial)
    let first = state.transfer(bytes: 30_000, subject: 1, at: .zero, appSide: true, radio: radio, energy: &recording)
    #expect(first.promoted)
    let firstEnd = state.busyUntil
    #expect(state == .connected(end: firstEnd, subject: 1, appSide: true))
    // Before the tail runs out nothing more is booked; after, it is booked whole, to the app's network.
    state.settle(at: state.busyUntil + SimDuration(seconds: radio.tailSeconds / 2), radio: radio, energy: &recording)
    #expect(state == .connected(end: firstEnd, subject: 1, appSide: true))
    #expect(recording.ledger.value(hourIndex: 0, subject: 1, component: .radioTail) == 0)
    let booked = recording.ledger.value(hourIndex: 0, subject: 1, component: .appNetwork)
    state.settle(at: state.busyUntil + SimDuration(seconds: radio.tailSeconds), radio: radio, energy: &recording)
    #expect(state == .idle(lastEnd: firstEnd))
    let tail = recording.ledger.value(hourIndex: 0, subject: 1, component: .appNetwork) - booked
    #expect(abs(tail - radio.tailWatts * radio.tailSeconds) < 1e-6)
    // A widget's transfer, cut 1 s into its tail: one second of tail, as radio_tail, and idle again.
    let start = SimTime.zero + .minutes(5)
    let second = state.transfer(bytes: 30_000, subject: 0, at: start, radio: radio, energy: &recording)
    let secondEnd = state.busyUntil
    #expect(second.promoted && state == .connected(end: secondEnd, subject: 0, appSide: false))
    state.cut(at: secondEnd + .seconds(1), radio: radio, energy: &recording)
    #expect(state == .idle(lastEnd: secondEnd))
    #expect(abs(recording.ledger.value(hourIndex: 0, subject: 0, component: .radioTail) - radio.tailWatts) < 1e-6)
  }

  @Test("two widgets reloading together on one device pay one promotion")
  func sharedRadioAcrossWidgets() {
    let result = ScenarioRunner.runReplication(EnergyTests.singleReload(widgets: 2), replication: 0)
    let promotions = [0, 1].map { result.totalJoules(subject: $0, component: .radioPromotion) }
    #expect(promotions.filter { $0 > 0 }.count == 1)
    let radio = (0..<2).reduce(0.0) { total, subject in
      total
        + [EnergyComponent.radioPromotion, .radioActive, .radioTail].reduce(0.0) {
          $0 + result.totalJoules(subject: subject, component: $1)
        }
    }
    #expect(radio < 2 * EnergyTests.singleRadioJoules)
  }

  @Test("Wi-Fi costs far less than LTE for the same reload (docs/model.md's sanity check)")
  func wifiVersusLTE() {
    var configuration = EnergyTests.singleReload()
    configuration.device.network = NetworkSelection(defaultNetwork: .wifi)
    let wifi = ScenarioRunner.runReplication(configuration, replication: 0)
    let radio = [EnergyComponent.radioPromotion, .radioActive, .radioTail].reduce(0.0) {
      $0 + wifi.totalJoules(subject: 0, component: $1)
    }
    #expect(radio < 0.1)
    #expect(EnergyTests.singleRadioJoules > 11)
  }

  @Test("the ledger's component count matches the components")
  func componentCount() {
    #expect(EnergyLedger.componentCount == EnergyComponent.allCases.count)
  }

  @Test("5G is LTE times the power factor")
  func fiveG() {
    let set = RadioSet(nr5gPowerFactor: 1.3)
    let nr = set.radio(.nr5g)
    #expect(abs(nr.tailWatts - 1.06 * 1.3) < 1e-12)
    #expect(abs(nr.promotionWatts - 1.21 * 1.3) < 1e-12)
    #expect(nr.tailSeconds == RadioConfiguration.lte.tailSeconds)
  }

  @Test("the device books its baseline every hour and its usage only while the user is awake")
  func baselineAndUsage() {
    let result = ScenarioRunner.runReplication(EnergyTests.singleReload(), replication: 0)
    let device = result.deviceSubject
    #expect(
      abs(result.totalJoules(subject: device, component: .baseline) - (0.025 + 0.594 * 0.043 / 1.28) * 86_400) < 1e-6)
    // Awake 07:00-23:30: 16.5 h at 0.5 W.
    #expect(abs(result.totalJoules(subject: device, component: .usage) - 0.5 * 16.5 * 3_600) < 1e-6)
  }

  @Test("a device's own energy by subject: held in place up to 16 subjects, in an array beyond; emptied per device")
  func deviceSubjects() {
    for subjects in [5, 16, 17, 40] {
      let stream = RandomStream(seed: StreamSeed(scenarioSeed: 4))
      var ledger = EnergyLedger(hours: 24, subjectCount: subjects)
      var expected = [Int128](repeating: 0, count: subjects)
      for _ in 0..<500 {
        let subject = Int(stream.uniform() * Double(subjects))
        let joules = (stream.uniform() - 0.1) * 4
        ledger.book(joules, hourIndex: Int(stream.uniform() * 24), subject: subject, component: .cpu)
        expected[subject] += Int128(Int64(nearest: joules * 1e6))
      }
      let held = (0..<subjects).map { ledger.deviceMicrojoules(subject: $0) }
      #expect(held == expected, "\(subjects) subjects")
      let widgets = expected.enumerated().filter { $0.offset != 2 }.reduce(Int128(0)) { $0 + $1.element }
      #expect(ledger.deviceWidgetJoules(deviceSubject: 2) == widgets.double / 1e6, "\(subjects) subjects")
      // The books keep every booking; the next device starts from nothing.
      let booked = ledger.totalsBySubject().reduce(Int128(0), +)
      ledger.startDevice()
      #expect((0..<subjects).allSatisfy { ledger.deviceMicrojoules(subject: $0) == 0 }, "\(subjects) subjects")
      #expect(booked == expected.reduce(0, +))
      #expect(ledger.totalsBySubject().reduce(Int128(0), +) == booked)
    }
  }

  /// A ledger of `hours` with bookings in `columns` (subject, component) spread over the hours.
  static func ledger(hours: Int, subjects: Int, columns: [Int], seed: UInt64) -> EnergyLedger {
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: seed))
    var ledger = EnergyLedger(hours: hours, subjectCount: subjects)
    for _ in 0..<(hours * 6) {
      let column = columns[Int(stream.uniform() * Double(columns.count))]
      ledger.book(
        stream.uniform() * 3, hourIndex: Int(stream.uniform() * Double(hours)),
        subject: column / EnergyLedger.componentCount,
        component: EnergyComponent(rawValue: column % EnergyLedger.componentCount)!)
    }
    return ledger
  }

  @Test("a ledger merges, totals and empties through its booked columns as through every cell")
  func bookedColumns() {
    // A phone's few columns and half the columns (walked), a busy ledger's many (every cell), four widgets'
    // few of 70, and one of over 128 columns (never walked).
    let cases = [
      (4, [0, 1, 16, 17, 38]), (4, Array(0..<20)), (4, Array(0..<30)), (7, [0, 1, 13, 64, 65, 69]), (13, [0, 5, 129]),
    ]
    for (subjects, columns) in cases {
      var sum = EnergyTests.ledger(hours: 48, subjects: subjects, columns: Array(0..<(subjects * 10)), seed: 1)
      let phone = EnergyTests.ledger(hours: 48, subjects: subjects, columns: columns, seed: 2)
      #expect(phone.walksColumns == (subjects * 10 <= 128 && columns.count * 2 <= subjects * 10))
      let expected = zip(sum.microjoules, phone.microjoules).map(+)
      var expectedTotals = [Int128](repeating: 0, count: subjects * 10)
      for (index, micro) in phone.microjoules.enumerated() { expectedTotals[index % (subjects * 10)] += micro }
      let totalsMatch = phone.totalsBySubject() == expectedTotals
      #expect(totalsMatch, "\(subjects) subjects, \(columns.count) columns")
      sum.merge(phone)
      let sumsMatch = sum.microjoules == expected
      #expect(sumsMatch, "\(subjects) subjects, \(columns.count) columns")
      // Reused: emptied for another run day by day, it holds only what that run books.
      var reused = phone
      reused.resetAllButDays()
      reused.clear(days: 0..<1, of: 2)
      let secondDay = (24 * subjects * 10)...
      let secondDayKept = reused.microjoules[secondDay] == phone.microjoules[secondDay]
      #expect(secondDayKept && reused.microjoules[..<secondDay.lowerBound].allSatisfy { $0 == 0 })
      reused.clear(days: 1..<2, of: 2)
      #expect(reused.microjoules.allSatisfy { $0 == 0 }, "\(subjects) subjects, \(columns.count) columns")
    }
  }
}

/// A bare ledger as a component's energy recorder, to drive one component alone (a device's consumers report
/// through its ``DeviceRecorder``).
struct LedgerRecording: EnergyRecording {
  var ledger: EnergyLedger

  mutating func book(_ joules: Double, hourIndex: Int, subject: Int, component: EnergyComponent) {
    ledger.book(joules, hourIndex: hourIndex, subject: subject, component: component)
  }
}
