/// What a swept key's values measure when they carry a unit: durations (`5m`, `1h`) or sizes (`30KB`). Sweep
/// reports add each such key in base units (`<key>_s`, `<key>_bytes`) beside the text as written, so the
/// points sort and plot by number.
public enum SweptQuantity: String, Sendable, CaseIterable {
  case duration
  case size

  /// The suffix of the column in base units: `_s` or `_bytes`.
  public var columnSuffix: String {
    switch self {
    case .duration: "_s"
    case .size: "_bytes"
    }
  }

  /// `text` in base units (seconds, bytes); nil when it is not one of this quantity.
  public func baseUnits(_ text: String) -> Double? {
    switch self {
    case .duration: Units.seconds(text)
    case .size: Units.bytes(text)
    }
  }

  /// The quantity every one of `values` is, with a unit written: nil for plain numbers, words, or a mix.
  public static func of(_ values: [String]) -> SweptQuantity? {
    guard !values.isEmpty else { return nil }
    return allCases.first { quantity in values.allSatisfy { quantity.baseUnits($0) != nil } }
  }
}
