/// How a long run or sweep learns that it should stop after the work in hand (the command line: Ctrl-C or
/// SIGTERM), and the exit status it then ends with. Asked between devices, replications and tasks, never
/// inside a simulation's event loop.
public struct StopRequest: Sendable {
  /// Called once, when the work starts: from then on a stop may be asked for (the command line installs
  /// its signal handlers here).
  public let listen: @Sendable () -> Void
  /// Whether a stop was asked for.
  public let isRequested: @Sendable () -> Bool
  /// The exit status of work stopped this way (130 after Ctrl-C, 143 after SIGTERM).
  public let exitStatus: @Sendable () -> Int32

  public init(
    listen: @escaping @Sendable () -> Void, isRequested: @escaping @Sendable () -> Bool,
    exitStatus: @escaping @Sendable () -> Int32
  ) {
    self.listen = listen
    self.isRequested = isRequested
    self.exitStatus = exitStatus
  }

  /// Never asks to stop.
  public static let never = StopRequest(listen: {}, isRequested: { false }, exitStatus: { 130 })
}
