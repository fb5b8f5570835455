/// A command that cannot finish: what to tell the user and the exit status widgetsim promises (1 the run
/// failed, 2 bad input, 128 + the signal's number after Ctrl-C or SIGTERM). Library code throws it; the
/// command line prints ``message`` on standard error and exits with ``status``.
public struct CommandFailure: Error, CustomStringConvertible, Sendable, Equatable {
  /// The process's exit status.
  public let status: Int32
  /// The text for standard error, without its final newline; empty when the command has said all already
  /// (a failed gate prints its verdicts on standard output).
  public let message: String

  public init(status: Int32, message: String = "") {
    self.status = status
    self.message = message
  }

  public var description: String { message }

  /// Bad input, exit 2: `error: ` and what is wrong.
  public static func badInput(_ what: String) -> CommandFailure {
    CommandFailure(status: 2, message: "error: \(what)")
  }

  /// The work failed, exit 1: `error: ` and why.
  public static func failed(_ why: String) -> CommandFailure {
    CommandFailure(status: 1, message: "error: \(why)")
  }

  /// Runs `body`; an error it throws becomes a failure with `status` and the message `error: ` + `prefix` +
  /// the error (a ``CommandFailure`` passes through unchanged).
  public static func mapping<T>(status: Int32, prefix: String = "", _ body: () throws -> T) throws(CommandFailure)
    -> T
  {
    do {
      return try body()
    } catch let failure as CommandFailure {
      throw failure
    } catch {
      throw CommandFailure(status: status, message: "error: \(prefix)\(error)")
    }
  }

  /// `message` with ArgumentParser's "Error: " written "error: ", as widgetsim's own messages start: one
  /// spelling, whichever part of the tool refused.
  public static func lowercasedPrefix(_ message: String) -> String {
    message.hasPrefix("Error: ") ? "error: " + message.dropFirst("Error: ".count) : message
  }
}
