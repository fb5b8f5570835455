import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Signals received (SIGINT or SIGTERM), counted by the handler.
private let signalsReceived = Atomic<Int>(0)
/// The first signal's number, for the exit code (128 + signal, as shells report it).
private let firstSignal = Atomic<Int32>(0)

/// The process's Ctrl-C and SIGTERM, as the command line hands them to its work (as ``Console/standard``
/// is its output): for `run`, `check` and `sweep` (``stopRequest``) the first asks the command to stop after
/// the work in hand, keep what is finished and say how to resume; for `merge` and `report` (``install()``),
/// to finish their reports. A second exits at once. Exiting at once leaves no report cut short under its
/// final name, nor a mixture of old and new: a folder's reports are renamed into place as one set (see
/// ``ReportSet``), so at worst `*.tmp-PID` files or an unfinished commit remain, which the next command
/// writing into that folder removes or finishes. Library code never installs the handlers itself: only a
/// command does, through these.
public enum Interruption {
  /// Installs the handlers for SIGINT and SIGTERM.
  public static func install() {
    signal(SIGINT, handle)
    signal(SIGTERM, handle)
  }

  /// Whether a stop was asked for.
  public static var requested: Bool { signalsReceived.load(ordering: .relaxed) > 0 }

  /// The exit code for a run stopped by the signal: 130 for Ctrl-C, 143 for SIGTERM.
  public static var exitCode: Int32 { 128 + max(1, firstSignal.load(ordering: .relaxed)) }

  /// For `run`, `check` and `sweep`: the handlers are installed when the work starts.
  public static let stopRequest = StopRequest(
    listen: { install() }, isRequested: { requested }, exitStatus: { exitCode })
}

/// The handler: only async-signal-safe calls (atomics, write(2), _exit).
private func handle(_ number: Int32) {
  let count = signalsReceived.wrappingAdd(1, ordering: .relaxed).newValue
  if count == 1 {
    firstSignal.store(number, ordering: .relaxed)
    let message: StaticString =
      "\nstopping after the work in hand; finished work is kept (press Ctrl-C again to quit at once)\n"
    _ = write(2, message.utf8Start, message.utf8CodeUnitCount)
  } else {
    let message: StaticString = "\nquit at once: reports already in place are untouched\n"
    _ = write(2, message.utf8Start, message.utf8CodeUnitCount)
    _exit(128 + number)
  }
}
