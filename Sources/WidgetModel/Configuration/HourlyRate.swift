/// A rate of events per hour that may differ by clock hour (a diurnal profile).
public struct HourlyRate: Sendable, Hashable {
  /// Events per hour during each clock hour 0...23.
  public let perHour: [Double]

  /// The same rate in every hour.
  public init(perHour: Double) {
    self.perHour = Array(repeating: perHour, count: 24)
  }

  /// A rate per clock hour; exactly 24 values.
  public init(profile: [Double]) {
    precondition(profile.count == 24, "an hourly profile has 24 values")
    perHour = profile
  }

  /// `perDay` events spread evenly over the hours where `weight` is positive (the waking hours, say).
  public init(perDay: Double, spreadOver weights: [Double]) {
    let total = weights.reduce(0, +)
    perHour = weights.map { total > 0 ? perDay * $0 / total : 0 }
  }

  public static let zero = HourlyRate(perHour: 0)

  public subscript(hour: Int) -> Double { perHour[hour] }

  public var isZero: Bool { perHour.allSatisfy { $0 == 0 } }
}
