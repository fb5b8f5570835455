import CommandSupport
import Testing

/// How the process ends after a command's error: widgetsim's own failures as thrown, the argument parser's
/// with exit 2 for a usage error and "error: " in front.
@Suite("Command ending")
struct CommandEndingTests {
  struct ParserError: Error {}

  @Test("a command failure ends with its own status and message on standard error, whatever the parser says")
  func failure() {
    let failure = CommandFailure.badInput("s.yaml:3:5: days: expected a whole number")
    let ending = CommandEnding(
      after: failure, parserStatus: CommandEnding.parserUsageStatus, parserMessage: "Error: something else")
    #expect(ending.status == failure.status && ending.message == failure.message && !ending.toStandardOutput)
    let quiet = CommandEnding(after: CommandFailure(status: 0), parserStatus: 1, parserMessage: "x")
    #expect(quiet.status == 0 && quiet.message.isEmpty && !quiet.toStandardOutput)
  }

  @Test("a usage error exits 2 with its message written \"error: \"; help goes to standard output with 0")
  func parser() {
    let usage = CommandEnding(
      after: ParserError(), parserStatus: CommandEnding.parserUsageStatus,
      parserMessage: "Error: Missing expected argument '<file>'\nUsage: widgetsim check <file>")
    #expect(usage.status == 2 && !usage.toStandardOutput)
    #expect(usage.message == CommandFailure.lowercasedPrefix(usage.message))
    #expect(usage.message.hasPrefix("error: Missing expected argument"))
    let help = CommandEnding(after: ParserError(), parserStatus: 0, parserMessage: "OVERVIEW: ...")
    #expect(help.status == 0 && help.message == "OVERVIEW: ..." && help.toStandardOutput)
    let other = CommandEnding(after: ParserError(), parserStatus: 3, parserMessage: "")
    #expect(other.status == 3 && other.message.isEmpty && !other.toStandardOutput)
  }
}
