import CommandSupport

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
    /// Whether another process holds the folder's lock (see ``OutputFolder/Lock``).
    public var isBusy = false
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

  /// Writes `bytes` to `path` atomically.
  public static func write(bytes: [UInt8], to path: String) throws(WriteError) {
    let writer = try AtomicFileWriter(path: path)
    try writer.append(bytes: bytes)
    try writer.commit()
  }

  /// Writes all of `text` to an open file descriptor, retrying short writes and interrupted calls; false
  /// (with `errno` set) when the write fails (``DescriptorWrite/all(_:to:)-(String,_)``).
  public static func writeAll(_ text: inout String, to descriptor: Int32) -> Bool {
    DescriptorWrite.all(&text, to: descriptor)
  }

  /// Writes all of `bytes` to an open file descriptor, as ``writeAll(_:to:)-(String,_)`` does. On a
  /// descriptor opened without blocking (a device or FIFO, see ``OutputDevice``) it waits for room at most
  /// `timeoutMilliseconds` at a time, then fails with `ETIMEDOUT`.
  public static func writeAll(
    _ bytes: UnsafeRawBufferPointer, to descriptor: Int32,
    timeoutMilliseconds: Int32 = OutputDevice.timeoutMilliseconds
  ) -> Bool {
    DescriptorWrite.all(bytes, to: descriptor, timeoutMilliseconds: timeoutMilliseconds)
  }

  /// Creates the temporary file `path` for writing: exclusively, and never through a symbolic link
  /// (`O_EXCL | O_NOFOLLOW`), so a file or link planted at that name cannot redirect the write outside the
  /// folder. A name left over (by a crash, or planted) is removed, never followed, and creation is tried once
  /// more; a second clash (someone racing us) is an error. Returns the descriptor, or -1 with `errno` set.
  public static func createExclusively(_ path: String) -> Int32 {
    let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
    let first = open(path, flags, 0o644)
    guard first < 0 && errno == EEXIST else { return first }
    // unlink removes a link itself, not what it points to.
    guard unlink(path) == 0 else { return -1 }
    return open(path, flags, 0o644)
  }

  /// Removes the file at `path` if there is one.
  public static func remove(_ path: String) {
    unlink(path)
  }

  /// Removes the temporary files (`NAME.tmp-PID`) that writers of processes no longer running left in
  /// `directory` (a second Ctrl-C or kill -9 ends a process before it can remove its own).
  public static func removeStaleTemporaries(in directory: String) {
    guard let folder = opendir(directory) else { return }
    defer { closedir(folder) }
    while let entry = readdir(folder) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard let marker = name.firstRange(of: ".tmp-"), let pid = Int32(name[marker.upperBound...]), pid != getpid()
      else { continue }
      if kill(pid, 0) != 0 && errno == ESRCH { unlink("\(directory)/\(name)") }
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
