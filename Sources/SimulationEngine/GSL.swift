import CGSL

/// Process-wide GSL setup.
public enum GSL {
  /// GSL's default error handler aborts the process; with it off, GSL functions return error codes and
  /// NaN, which this library checks. Runs once (a `static let` initialiser is thread-safe and lazy).
  private static let errorHandlerTurnedOff: Bool = {
    gsl_set_error_handler_off()
    return true
  }()

  /// Turns GSL's aborting error handler off; callers of GSL outside this module call it first.
  public static func configure() {
    _ = errorHandlerTurnedOff
  }

  /// The linked GSL version, for `widgetsim --version` and manifests.
  static var version: String { String(cString: widgetsim_gsl_version()) }
}

/// The version of the GNU Scientific Library this build links.
public var gslVersion: String { GSL.version }
