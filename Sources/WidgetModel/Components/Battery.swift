#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The energy source: turns net power over a segment into state of charge. Linear, or the kinetic
/// battery model (KiBaM, Manwell & McGowan) with its closed-form update over a constant-power segment
/// (Jongerden & Haverkort). Charge is kept in joules; a constant power is a constant current at the
/// nominal voltage, so the current-based formulas apply unchanged.
struct Battery: Sendable {
  let capacity: Double
  let model: BatteryModelKind
  /// Linear: the charge. KiBaM: the available well y1 and the bound well y2.
  private(set) var available: Double
  private(set) var bound: Double

  init(_ configuration: BatteryConfiguration) {
    capacity = configuration.capacityJoules
    model = configuration.model
    let charge = configuration.capacityJoules * configuration.initialStateOfCharge
    switch configuration.model {
    case .linear:
      available = charge
      bound = 0
    case .kibam(let c, _):
      available = charge * c
      bound = charge * (1 - c)
    }
  }

  /// State of charge, 0...1: all the charge left over the capacity.
  var stateOfCharge: Double { (available + bound) / capacity }

  /// Empty: the available charge is gone (for KiBaM some may remain bound).
  var isEmpty: Bool { available <= 1e-9 }

  /// Draws `watts` (negative: charges) for `seconds`, clamping at empty and full.
  mutating func apply(watts: Double, seconds: Double) {
    guard seconds > 0 else { return }
    switch model {
    case .linear:
      available = Swift.min(capacity, Swift.max(0, available - watts * seconds))
    case .kibam(let c, let k):
      let (y1, y2) = Battery.kibam(available: available, bound: bound, c: c, k: k, current: watts, seconds: seconds)
      if y1 + y2 >= capacity {
        available = capacity * c
        bound = capacity * (1 - c)
      } else {
        available = Swift.max(0, y1)
        bound = Swift.max(0, y2)
      }
    }
  }

  /// The KiBaM closed form over a constant-current segment: with k' = k / (c (1 - c)) and y0 = y1 + y2,
  /// y1(t) = y1 e^(-k't) + (y0 k' c - I)(1 - e^(-k't)) / k' - I c (k't - 1 + e^(-k't)) / k',
  /// y2(t) = y2 e^(-k't) + y0 (1 - c)(1 - e^(-k't)) - I (1 - c)(k't - 1 + e^(-k't)) / k'.
  static func kibam(
    available y1: Double, bound y2: Double, c: Double, k: Double, current: Double, seconds t: Double
  ) -> (Double, Double) {
    let kPrime = k / (c * (1 - c))
    let y0 = y1 + y2
    let decay = exp(-kPrime * t)
    let ramp = kPrime * t - 1 + decay
    let available = y1 * decay + (y0 * kPrime * c - current) * (1 - decay) / kPrime - current * c * ramp / kPrime
    let bound = y2 * decay + y0 * (1 - c) * (1 - decay) - current * (1 - c) * ramp / kPrime
    return (available, bound)
  }
}
