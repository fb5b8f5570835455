#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes whole files so that no reader ever sees half of one: see ``AtomicFileWriter``.
public enum AtomicFile {
  public struct WriteError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let reason: String
    public var description: String { "cannot write \(path): \(reason)" }
  }

  static func error(_ path: String, _ operation: String) -> WriteError {
    WriteError(path: path, reason: "\(operation): \(String(cString: strerror(errno)))")
  }

  /// Writes `contents` to `path` atomically.
  public static func write(_ contents: String, to path: String) throws(WriteError) {
    let writer = try AtomicFileWriter(path: path)
    try writer.append(contents)
    try writer.commit()
  }

  /// Creates `path` and its missing parents, like `mkdir -p`.
  public static func createDirectory(_ path: String) throws(WriteError) {
    var current = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/") {
      current += "/" + component
      if mkdir(current, 0o755) != 0 && errno != EEXIST {
        throw WriteError(path: path, reason: "mkdir \(current): \(String(cString: strerror(errno)))")
      }
    }
  }
}
