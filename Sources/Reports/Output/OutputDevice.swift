import CommandSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An output path naming a character device or a FIFO (`/dev/null`, `/dev/stdout`, a named pipe a CI job
/// reads): written into, never replaced by a file renamed over it. Opened without blocking (`O_NONBLOCK`), so
/// a FIFO no process reads is refused at once instead of hanging the command, and written with a time limit
/// (``AtomicFile/writeAll(_:to:timeoutMilliseconds:)``), so a reader that stops reading cannot hang it either.
public enum OutputDevice {
  /// How long a write waits for a device or FIFO to take more bytes before it fails.
  public static let timeoutMilliseconds = DescriptorWrite.timeoutMilliseconds

  /// The descriptor of the character device or FIFO at `path`, opened for writing; nil when `path` is a
  /// regular file or names nothing (it is written as a file). Anything else (a folder, a socket, a block
  /// device), a FIFO without a reader, and a file in `/dev` or `/proc` (`/dev/stdout` redirected to a file:
  /// renaming a file over it would replace the system's link) is an error naming it.
  static func descriptor(for path: String) throws(AtomicFile.WriteError) -> Int32? {
    var status = stat()
    guard stat(path, &status) == 0, !isRegular(status) else {
      let place = OutputPaths.resolved(path)
      if place.hasPrefix("/dev/") || place.hasPrefix("/proc/") {
        throw AtomicFile.WriteError(
          path: path, reason: "it is \(place), where widgetsim writes only into a device or FIFO; name the file itself")
      }
      return nil
    }
    guard isStream(status) else {
      throw AtomicFile.WriteError(path: path, reason: "it is \(kind(status)), not a file widgetsim can write")
    }
    let descriptor = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
    guard descriptor >= 0 else { throw openError(path) }
    // Checked again on what was opened: the path may have changed since stat.
    guard fstat(descriptor, &status) == 0, isStream(status) else {
      close(descriptor)
      return nil
    }
    return descriptor
  }

  /// The error of a failed `open` of `path` for writing without blocking (`errno` as it left it).
  static func openError(_ path: String) -> AtomicFile.WriteError {
    guard errno == ENXIO else { return AtomicFile.error(path, "open") }
    return AtomicFile.WriteError(path: path, reason: "it is a FIFO that no process is reading")
  }

  static func isRegular(_ status: stat) -> Bool { (status.st_mode & S_IFMT) == S_IFREG }

  /// A character device or a FIFO: written into as a stream.
  static func isStream(_ status: stat) -> Bool {
    let type = status.st_mode & S_IFMT
    return type == S_IFCHR || type == S_IFIFO
  }

  static func kind(_ status: stat) -> String {
    switch status.st_mode & S_IFMT {
    case S_IFDIR: "a folder"
    case S_IFBLK: "a block device"
    case S_IFSOCK: "a socket"
    default: "not a regular file"
    }
  }
}
