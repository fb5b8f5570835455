import CommandSupport
import ScenarioFiles

extension ScenarioValidation {
  /// `widgetsim validate`: checks each file (``check(_:arguments:say:warn:)``), its line on standard output,
  /// its warnings or what is wrong with it on standard error; fails with exit 2 if any file is invalid.
  public static func checkForCommand(
    _ files: [String], arguments: ScenarioArguments, console: Console
  ) throws(CommandFailure) {
    let valid = check(files, arguments: arguments, say: console.print, warn: { console.error("\($0)\n") })
    if !valid { throw CommandFailure(status: 2) }
  }
}
