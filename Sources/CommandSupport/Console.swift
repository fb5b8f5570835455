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
  /// Writes text to standard error (``standard`` escapes control characters first).
  public let error: @Sendable (String) -> Void
  /// Writes terminal control sequences to standard error as they are: only the progress line uses it.
  public let terminal: @Sendable (String) -> Void
  /// Whether standard error is a terminal: the only place a progress line is drawn.
  public let errorIsTerminal: Bool
  /// Processor cores online: the default number of threads.
  public let cores: Int
  /// Writes out what ``output`` holds buffered (before something that may wait, such as a CI file).
  public let flush: @Sendable () -> Void

  public init(
    cores: Int = 1, errorIsTerminal: Bool = false, output: @escaping @Sendable (String) -> Void,
    error: @escaping @Sendable (String) -> Void, terminal: (@Sendable (String) -> Void)? = nil,
    flush: @escaping @Sendable () -> Void = {}
  ) {
    self.cores = cores
    self.errorIsTerminal = errorIsTerminal
    self.output = output
    self.error = error
    self.terminal = terminal ?? error
    self.flush = flush
  }

  /// The process's own: standard output buffered (as `print` writes it), standard error unbuffered (with
  /// `write(2)`, which needs no shared `FILE *`). Messages quote input files (keys, values, CSV cells): their
  /// control characters are shown escaped, so no input can move the cursor, retitle or recolour the terminal.
  public static let standard = Console(
    cores: Swift.max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))), errorIsTerminal: isatty(2) == 1,
    output: { Swift.print(Console.escapingControls($0), terminator: "") },
    error: { message in
      var text = Console.escapingControls(message)
      _ = DescriptorWrite.all(&text, to: 2)
    },
    terminal: { sequence in
      var text = sequence
      _ = DescriptorWrite.all(&text, to: 2)
    },
    flush: { fflush(nil) })

  /// `text` with every control character but newline and tab (C0, DEL, C1: escapes, carriage returns,
  /// bells) written as `\u{XX}`.
  public static func escapingControls(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isEscaped) else { return text }
    var escaped = ""
    for scalar in text.unicodeScalars {
      if isEscaped(scalar) {
        escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      } else {
        escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }

  static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
    (scalar.value < 0x20 && scalar != "\n" && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
  }

  /// Writes `line` and a newline to standard output.
  public func print(_ line: String) {
    output(line + "\n")
  }

  /// Ends the process with `status`, after writing `message` (if any) to standard output: how a command ends
  /// that printed what was asked (help, a version).
  public func exit(status: Int32, output message: String) -> Never {
    if !message.isEmpty { print(message) }
    flush()
    Console.endProcess(status)
  }

  /// Ends the process with `status`, after writing `message` (if any) and a newline to standard error.
  public func exit(status: Int32, error message: String) -> Never {
    if !message.isEmpty { error(message + "\n") }
    flush()
    Console.endProcess(status)
  }

  private static func endProcess(_ status: Int32) -> Never {
    #if canImport(Glibc)
      Glibc.exit(status)
    #else
      Darwin.exit(status)
    #endif
  }
}
