extension SweepSelection.Quantity {
  /// The quantity in `unit` (a metric's unit in summary.csv): a bare number is in that unit already; a
  /// number with a unit is converted when the unit is of the same kind (`15m` for seconds, `2 J/day` for
  /// `mWh/day`); nil when the unit does not fit.
  public func value(in unit: String) -> Double? {
    let text = self.text.trimmingWhitespace
    guard let number = SweepSelection.leadingNumber(text) else { return nil }
    let numberText = text.prefix { $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }
    let written = text.dropFirst(numberText.count).trimmingWhitespace
    if written.isEmpty || written == unit { return number }
    // A rate: the same `/per` on both sides, and the parts before it of one kind.
    let (writtenBase, writtenPer) = Self.split(written)
    let (base, per) = Self.split(unit)
    guard writtenPer == per else { return nil }
    if writtenBase == base { return number }
    for parse in [Units.seconds, Units.joules, Units.bytes] {
      if let scale = parse("1 \(base)"), let value = parse("\(number) \(writtenBase)") { return value / scale }
    }
    return nil
  }

  /// `mWh/day` as (`mWh`, `day`); a unit without `/` has no `per`.
  static func split(_ unit: String) -> (base: String, per: String?) {
    guard let slash = unit.firstIndex(of: "/") else { return (unit, nil) }
    return (String(unit[..<slash]).trimmingWhitespace, String(unit[unit.index(after: slash)...]).trimmingWhitespace)
  }
}
