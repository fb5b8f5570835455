#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A report being written: text is appended to a temporary file beside the target, and ``commit()``
/// flushes it to disk and renames it over the target, so no reader ever sees half a file. A writer that
/// is dropped without committing removes its temporary file.
public final class AtomicFileWriter {
  public let path: String
  private let temporary: String
  private var descriptor: Int32
  private var buffer = ""
  private var committed = false

  /// Buffered text is written out once it passes this many bytes.
  private static let flushThreshold = 1 << 16

  public init(path: String) throws(AtomicFile.WriteError) {
    self.path = path
    temporary = "\(path).tmp-\(getpid())"
    descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { throw AtomicFile.error(path, "open") }
    buffer.reserveCapacity(AtomicFileWriter.flushThreshold * 2)
  }

  deinit {
    if !committed {
      if descriptor >= 0 { close(descriptor) }
      unlink(temporary)
    }
  }

  public func append(_ text: String) throws(AtomicFile.WriteError) {
    buffer += text
    if buffer.utf8.count >= AtomicFileWriter.flushThreshold { try flush() }
  }

  /// Writes what is buffered, flushes it to disk and renames the file into place.
  public func commit() throws(AtomicFile.WriteError) {
    try flush()
    if fsync(descriptor) != 0 { throw AtomicFile.error(path, "fsync") }
    let closed = close(descriptor)
    descriptor = -1
    if closed != 0 { throw AtomicFile.error(path, "close") }
    guard rename(temporary, path) == 0 else { throw AtomicFile.error(path, "rename") }
    committed = true
  }

  private func flush() throws(AtomicFile.WriteError) {
    guard AtomicFile.writeAll(&buffer, to: descriptor) else { throw AtomicFile.error(path, "write") }
    buffer.removeAll(keepingCapacity: true)
  }
}
