/// How the process ends after the error a command threw: a ``CommandFailure`` with its own status and
/// message; anything else (the argument parser's: a usage error, `--help`, `--version`) with the parser's
/// status and message, except that a usage error exits 2, as widgetsim promises (the parser says EX_USAGE,
/// 64), and that its "Error: " is written "error: ", as widgetsim's own messages start.
public struct CommandEnding: Equatable, Sendable {
  /// The process's exit status.
  public let status: Int32
  /// What to print; empty for nothing.
  public let message: String
  /// Whether ``message`` goes to standard output (what was asked for: help, a version) rather than standard
  /// error.
  public let toStandardOutput: Bool

  /// The argument parser's exit status for a usage error (EX_USAGE).
  public static let parserUsageStatus: Int32 = 64

  /// The ending after `error`; `parserStatus` and `parserMessage` are what the argument parser says of it.
  public init(after error: any Error, parserStatus: Int32, parserMessage: String) {
    if let failure = error as? CommandFailure {
      (status, message, toStandardOutput) = (failure.status, failure.message, false)
      return
    }
    message = CommandFailure.lowercasedPrefix(parserMessage)
    toStandardOutput = parserStatus == 0
    status = parserStatus == CommandEnding.parserUsageStatus ? 2 : parserStatus
  }
}

extension Console {
  /// Ends the process as `ending` says.
  public func exit(_ ending: CommandEnding) -> Never {
    if ending.toStandardOutput { exit(status: ending.status, output: ending.message) }
    exit(status: ending.status, error: ending.message)
  }
}
