import SimulationEngine
import Testing

@testable import Results

/// Two bookings made in one call (one subject, one hour) leave the ledger as the two single bookings do, and
/// return the same amounts: the cells, the booked columns and the device's figures, bit for bit.
@Suite("Paired energy bookings")
struct PairedBookingTests {
  /// An amount in joules of every kind a booking meets: ordinary, zero, NaN, negative, past the clamp, and
  /// fractions whose microjoules round half away from zero.
  private static func amount(_ generator: inout SplitMix64) -> Double {
    switch generator.next() % 8 {
    case 0: 0
    case 1: .nan
    case 2: -Double(generator.next() % 1_000) / 1_000
    case 3: 3e12 * (generator.next() % 2 == 0 ? 1 : -1)
    case 4: Double(generator.next() % 10_000) * 1e-6 + 0.5e-6
    default: Double(generator.next() % 1_000_000) / 997
    }
  }

  @Test("a pair books the cells, columns and device figures of two single bookings", arguments: [5, 20])
  func pairMatchesSingles(subjects: Int) {
    var generator = SplitMix64(state: 65)
    let hours = 48
    var paired = EnergyLedger(hours: hours, subjectCount: subjects)
    var single = paired
    for device in 0..<4 {
      paired.startDevice()
      single.startDevice()
      paired.deviceFromHour = device * 6
      single.deviceFromHour = device * 6
      for _ in 0..<2_000 {
        let (first, second) = (PairedBookingTests.amount(&generator), PairedBookingTests.amount(&generator))
        // Hours past either end are clamped to the first and last.
        let hour = Int(generator.next() % UInt64(hours + 8)) - 4
        let subject = Int(generator.next() % UInt64(subjects))
        let count = UInt64(EnergyComponent.allCases.count)
        let components = (
          EnergyComponent(rawValue: Int(generator.next() % count))!,
          EnergyComponent(rawValue: Int(generator.next() % count))!
        )
        let booked = paired.book(first, second, hourIndex: hour, subject: subject, components: components)
        let firstBooked = single.book(first, hourIndex: hour, subject: subject, component: components.0)
        let secondBooked = single.book(second, hourIndex: hour, subject: subject, component: components.1)
        #expect(booked.0.bitPattern == firstBooked.bitPattern && booked.1.bitPattern == secondBooked.bitPattern)
      }
      for subject in 0..<subjects {
        #expect(paired.deviceMicrojoules(subject: subject) == single.deviceMicrojoules(subject: subject))
      }
    }
    #expect(paired.books.sameCells(as: single.books))
    #expect(paired.books.booked == single.books.booked)
    #expect(paired.microjoules.contains { $0 != 0 })
  }
}
