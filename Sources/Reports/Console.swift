#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a command's messages go: results to standard output, everything else (estimates, progress,
/// interruptions) to standard error. Library code writes through a console, so tests can read what a run
/// said; the command line passes ``standard``.
public struct Console: Sendable {
  /// Writes text to standard output as it is.
  public let output: @Sendable (String) -> Void
  /// Writes text to standard error as it is.
  public let error: @Sendable (String) -> Void
  /// Whether standard error is a terminal: the only place a progress line is drawn.
  public let errorIsTerminal: Bool
  /// Processor cores online: the default number of threads.
  public let cores: Int

  public init(
    cores: Int = 1, errorIsTerminal: Bool = false, output: @escaping @Sendable (String) -> Void,
    error: @escaping @Sendable (String) -> Void
  ) {
    self.cores = cores
    self.errorIsTerminal = errorIsTerminal
    self.output = output
    self.error = error
  }

  /// The process's own: standard output buffered (as `print` writes it), standard error unbuffered (with
  /// `write(2)`, which needs no shared `FILE *`).
  public static let standard = Console(
    cores: Swift.max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))), errorIsTerminal: isatty(2) == 1,
    output: { Swift.print($0, terminator: "") },
    error: { message in
      var text = message
      _ = AtomicFile.writeAll(&text, to: 2)
    })

  /// Writes `line` and a newline to standard output.
  public func print(_ line: String) {
    output(line + "\n")
  }
}
