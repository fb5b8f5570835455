/// Energy in the units phone makers and users quote: a milliwatt-hour is 3.6 J (1 mW for 3,600 s).
public enum EnergyUnits {
  public static let joulesPerMilliwattHour = 3.6

  /// `joules` in mWh.
  public static func milliwattHours(_ joules: Double) -> Double {
    joules / joulesPerMilliwattHour
  }
}
