import CommandSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The folder a command writes into: checked before anything is written, and locked while it is.
public enum OutputFolder {
  /// Why `path` may not be an output folder, or nil: it must not be empty (`--out ''`) and must not be the
  /// root of the file system, however it is spelled (`/`, `//`, `/.`, `/..`).
  public static func problem(_ path: String) -> String? {
    if path.isEmpty { return "the output folder is empty ('')" }
    if path.hasPrefix("/") && path.split(separator: "/").allSatisfy({ $0 == "." || $0 == ".." }) {
      return "the output folder is the root of the file system ('\(path)')"
    }
    return nil
  }

  /// Name of the lock file each writing command holds in its output folder.
  public static let lockName = ".widgetsim.lock"

  /// An exclusive lock on an output folder (`flock` on its lock file), held until the value is dropped or
  /// the process ends: two commands writing into one folder at once would leave a mixture.
  public final class Lock: Sendable {
    private let descriptor: Int32

    /// Takes the lock on `directory` (which must exist), or fails saying who holds it.
    public init(_ directory: String) throws(AtomicFile.WriteError) {
      let path = "\(directory)/\(OutputFolder.lockName)"
      let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
      guard descriptor >= 0 else { throw AtomicFile.error(path, "open") }
      guard OutputFolder.takeLock(descriptor) else {
        let holder = OutputFolder.holder(descriptor)
        close(descriptor)
        throw AtomicFile.WriteError(
          path: directory,
          reason: "another widgetsim\(holder) is writing into this folder; wait for it, or use another --out",
          isBusy: true)
      }
      // Who holds it, for the message a second command prints: written over the old holder's line, then
      // trimmed to it, so a process killed in between never leaves an empty or unterminated lock file.
      let pid = Array("\(getpid())\n".utf8)
      let written = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
      if written == pid.count { _ = ftruncate(descriptor, off_t(pid.count)) }
      self.descriptor = descriptor
    }

    deinit {
      close(descriptor)
    }
  }

  /// Takes the lock for a command: another writer holding it is bad input (exit 2, as any refused folder);
  /// a folder where the lock file cannot be made is a failure to write (exit 1). Then, before the command
  /// looks at the folder's reports, finishes a commit a stopped process left (``ReportSet/recover(_:)``) and
  /// removes the temporary files of processes no longer running.
  public static func lock(_ directory: String) throws(CommandFailure) -> Lock {
    let lock: Lock
    do {
      lock = try Lock(directory)
    } catch {
      throw CommandFailure(status: error.isBusy ? 2 : 1, message: "error: \(error)")
    }
    try ReportSet.recover(directory)
    AtomicFile.removeStaleTemporaries(in: directory)
    return lock
  }

  /// Creates `directory` if need be and takes its lock (``lock(_:)``): what a command does before it checks
  /// the reports already there, so no other command can write them between the check and the writing.
  public static func prepare(_ directory: String) throws(CommandFailure) -> Lock {
    if let problem = problem(directory) { throw .badInput(problem) }
    do {
      try AtomicFile.createDirectory(directory)
    } catch {
      throw .failed("\(error)")
    }
    return try lock(directory)
  }

  /// " (process N)" from the lock file's contents, or "" when unreadable.
  static func holder(_ descriptor: Int32) -> String {
    holderID(descriptor).map { " (process \($0))" } ?? ""
  }

  /// The process the lock file names as its last holder, nil when unreadable.
  static func holderID(_ descriptor: Int32) -> Int32? {
    var bytes = [UInt8](repeating: 0, count: 32)
    let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { return nil }
    return Int32(String(decoding: bytes[0..<count], as: UTF8.self).split(separator: "\n").first ?? "")
  }

  /// Takes the lock without waiting for another process. When the file names this very process, which let
  /// the lock go, the holder is a child another thread is starting (`posix_spawn` copies every descriptor
  /// until the child's `exec` closes the close-on-exec ones): that lasts microseconds, so the lock is tried
  /// again for up to a second.
  static func takeLock(_ descriptor: Int32) -> Bool {
    if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
    guard holderID(descriptor) == getpid() else { return false }
    for _ in 0..<100 {
      usleep(10_000)
      if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
    }
    return false
  }
}
