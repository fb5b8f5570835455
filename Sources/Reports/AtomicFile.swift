#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a file so that no reader ever sees half of it: into a temporary file beside the target,
/// flushed to disk, then renamed over the target (rename is atomic within a file system).
public enum AtomicFile {
  public struct WriteError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let reason: String
    public var description: String { "cannot write \(path): \(reason)" }
  }

  /// Writes `contents` to `path` atomically.
  public static func write(_ contents: String, to path: String) throws(WriteError) {
    let temporary = "\(path).tmp-\(getpid())"
    func fail(_ what: String) -> WriteError {
      WriteError(path: path, reason: "\(what): \(String(cString: strerror(errno)))")
    }
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { throw fail("open") }
    var text = contents
    var failure: WriteError?
    text.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          failure = fail("write")
          return
        }
        offset += written
      }
    }
    if failure == nil && fsync(descriptor) != 0 { failure = fail("fsync") }
    if close(descriptor) != 0 && failure == nil { failure = fail("close") }
    if let failure {
      unlink(temporary)
      throw failure
    }
    guard rename(temporary, path) == 0 else {
      let error = fail("rename")
      unlink(temporary)
      throw error
    }
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
