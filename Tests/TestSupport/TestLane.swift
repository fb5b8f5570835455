import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which tests a run of the suite takes: `scripts/test` runs every one (CI does); `scripts/test --fast` sets
/// `WIDGETSIM_FAST_TESTS=1` and leaves out the slow ones, for the edit-test loop (docs/testing.md lists
/// them and why they are slow).
public enum TestLane {
  public static let fast: Bool = getenv("WIDGETSIM_FAST_TESTS").map { String(cString: $0) == "1" } ?? false
}

extension Trait where Self == ConditionTrait {
  /// A slow suite or test (many seeds of a recovery, a browser, processes killed and resumed): run by
  /// `scripts/test` and CI, left out by `scripts/test --fast`. `why` says what makes it slow.
  public static func slow(_ why: String) -> Self {
    .enabled(if: !TestLane.fast, Comment(rawValue: "slow (\(why)): left out by scripts/test --fast"))
  }
}
