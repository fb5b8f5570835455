#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A report being written: text is appended to a temporary file beside the target, and ``commit()``
/// flushes it to disk and renames it over the target, so no reader ever sees half a file. A writer that
/// is dropped without committing removes its temporary file. A target that is a character device or a FIFO
/// (`/dev/null`, a named pipe) is written into instead, never replaced (see ``OutputDevice``).
public final class AtomicFileWriter {
  public let path: String
  /// The temporary file, `NAME.tmp-PID`; nil when writing straight into a device or FIFO at ``path``.
  let temporary: String?
  private var descriptor: Int32
  private var buffer = ""
  /// Whether the temporary file is no longer this writer's to remove: renamed, or named by a commit journal.
  private var committed = false

  /// Buffered text is written out once it passes this many bytes.
  private static let flushThreshold = 1 << 16

  public init(path: String) throws(AtomicFile.WriteError) {
    self.path = path
    if let device = try OutputDevice.descriptor(for: path) {
      temporary = nil
      descriptor = device
    } else {
      let temporary = "\(path).tmp-\(getpid())"
      self.temporary = temporary
      descriptor = AtomicFile.createExclusively(temporary)
      guard descriptor >= 0 else { throw AtomicFile.error(path, "open") }
    }
    buffer.reserveCapacity(AtomicFileWriter.flushThreshold * 2)
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
    if !committed, let temporary { unlink(temporary) }
  }

  public func append(_ text: String) throws(AtomicFile.WriteError) {
    buffer += text
    if buffer.utf8.count >= AtomicFileWriter.flushThreshold { try flush() }
  }

  /// Appends binary data (a shard file), written at once.
  public func append(bytes: [UInt8]) throws(AtomicFile.WriteError) {
    try flush()
    let written = bytes.withUnsafeBytes { AtomicFile.writeAll($0, to: descriptor) }
    guard written else { throw AtomicFile.error(path, "write") }
  }

  /// Appends the whole of the complete report at `source` (another run's, being resumed), which must start
  /// with `header` and end with a newline. Copied in blocks: the report may be far larger than memory wants.
  public func append(contentsOf source: String, header: String) throws(AtomicFile.WriteError) {
    try flush()
    let input = open(source, O_RDONLY)
    guard input >= 0 else { throw AtomicFile.error(source, "open") }
    defer { close(input) }
    var block = [UInt8](repeating: 0, count: 1 << 16)
    var copied = 0
    var last: UInt8 = 0
    while true {
      let count = block.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count < 0 { throw AtomicFile.error(source, "read") }
      if count == 0 { break }
      if copied == 0 {
        let expected = Array(header.utf8)
        guard count >= expected.count, Array(block[0..<expected.count]) == expected else {
          throw AtomicFile.WriteError(path: source, reason: "does not start with this report's header")
        }
      }
      let wrote = block.withUnsafeBytes { raw in
        AtomicFile.writeAll(UnsafeRawBufferPointer(rebasing: raw[0..<count]), to: descriptor)
      }
      guard wrote else { throw AtomicFile.error(path, "write") }
      copied += count
      last = block[count - 1]
    }
    guard copied > 0, last == UInt8(ascii: "\n") else {
      throw AtomicFile.WriteError(path: source, reason: "is cut short (it does not end with a newline)")
    }
  }

  /// Writes what is buffered, flushes it to disk and renames the file into place.
  public func commit() throws(AtomicFile.WriteError) {
    try prepare()
    try rename()
    committed = true
  }

  /// Writes what is buffered and flushes it to disk, ready to be renamed (a ``ReportSet`` prepares every
  /// file of a set before it renames any). A device or FIFO is only written: `fsync` does not apply.
  func prepare() throws(AtomicFile.WriteError) {
    try flush()
    if temporary != nil && fsync(descriptor) != 0 { throw AtomicFile.error(path, "fsync") }
    let closed = close(descriptor)
    descriptor = -1
    if closed != 0 { throw AtomicFile.error(path, "close") }
  }

  /// Leaves the prepared temporary file in place when the writer is dropped: a commit journal names it.
  func handOver() { committed = true }

  /// Renames the prepared temporary file over the target.
  func rename() throws(AtomicFile.WriteError) {
    guard let temporary else { return }
    guard systemRename(temporary, path) == 0 else { throw AtomicFile.error(path, "rename") }
  }

  private func flush() throws(AtomicFile.WriteError) {
    guard AtomicFile.writeAll(&buffer, to: descriptor) else { throw AtomicFile.error(path, "write") }
    buffer.removeAll(keepingCapacity: true)
  }
}

/// `rename(2)`, named apart from ``AtomicFileWriter/rename()``.
func systemRename(_ from: String, _ to: String) -> Int32 {
  rename(from, to)
}
