/// How far a sample's rates are off because its phones are not the fleet's other phones: per UTC hour, the
/// variance of the sample's count that its phones' uneven shares add beyond the dispersion's; and the
/// relative variance of the sample's level that every hour shares (phones that are busier than others all day).
package struct PhoneSpread: Sendable {
  /// Per hour, `sum n^2 - (sum n)^2 / N - D sum n` (at least 0).
  let hours: [Double]
  /// The days' spread beyond their hours' added (`2 sum cov`: a phone busier in one hour is busier in the
  /// others), over the days' squared totals: the relative variance of every rate of a day of the sample at
  /// once. Days are taken apart (a phone's level that lasts from day to day is left out).
  let level: Double

  /// What a sample's phones recorded of their own requests (``PhoneHours``), for one direction: how many they
  /// are and, per UTC hour and per UTC day, the sum of squares of each one's requests in it.
  package struct Squares: Sendable {
    let phones: Int
    let hours: [UInt64]
    let days: [UInt64]

    package init(phones: Int, hours: [UInt64], days: [UInt64]) {
      self.phones = phones
      self.hours = hours
      self.days = days
    }
  }

  static let none = PhoneSpread(hours: [], level: 0)

  private init(hours: [Double], level: Double) {
    self.hours = hours
    self.level = level
  }

  /// The spread of `counts` (the sample's requests per second over the run's days) from `squares`, at the
  /// series' `dispersion`. Requests that come together over minutes (an order's updates) leave the
  /// dispersion of successive seconds near 1, yet a sample of other phones would have held other orders.
  init(_ counts: UnsafeBufferPointer<UInt32>, squares: Squares, dispersion: Double) {
    let phones = Double(squares.phones)
    guard phones > 0, squares.hours.count * 3_600 == counts.count, squares.days.count * 24 == squares.hours.count
    else {
      self = .none
      return
    }
    var hours = Array(repeating: 0.0, count: squares.hours.count)
    var (shared, squaredTotals) = (0.0, 0.0)
    for day in squares.days.indices {
      var (dayTotal, hourVariances) = (0.0, 0.0)
      for hour in (day * 24)..<((day + 1) * 24) {
        // Summed as integers: the loop is the whole run's seconds.
        var sum: UInt64 = 0
        for second in (hour * 3_600)..<((hour + 1) * 3_600) { sum &+= UInt64(counts[second]) }
        let total = Double(sum)
        let variance = Double(squares.hours[hour]) - total * total / phones
        hours[hour] = Swift.max(0, variance - dispersion * total)
        hourVariances += variance
        dayTotal += total
      }
      shared += Double(squares.days[day]) - dayTotal * dayTotal / phones - hourVariances
      squaredTotals += dayTotal * dayTotal
    }
    self.hours = hours
    // Each day's own relative variance, weighed by its total: a day's blocks are off by its phones' level.
    level = squaredTotals > 0 ? Swift.max(0, shared) / squaredTotals : 0
  }
}
