import Reports

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Process-level output and exit, without Foundation.
enum Console {
  /// Writes `message` to standard error unbuffered (with `write(2)`, which needs no shared `FILE *`).
  static func error(_ message: String) {
    var text = message
    _ = AtomicFile.writeAll(&text, to: 2)
  }

  /// Online processor cores, for the default `--jobs`.
  static var cores: Int { Swift.max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

  /// Whether standard error is a terminal (progress lines go there only then).
  static var standardErrorIsTerminal: Bool { isatty(2) == 1 }

  /// Ends the process with `code`.
  static func exit(_ code: Int32) -> Never {
    #if canImport(Glibc)
      Glibc.exit(code)
    #else
      Darwin.exit(code)
    #endif
  }
}
