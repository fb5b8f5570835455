#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading input files, without Foundation: the one reader every command's inputs go through. It reads only
/// a regular file (a folder, a device such as /dev/zero, a FIFO or a socket is refused before anything is
/// read, and opening never waits for a FIFO's writer) of at most the limit its caller documents.
public enum TextFile {
  public struct ReadError: Error, CustomStringConvertible {
    public let path: String
    /// Why, e.g. "cannot open: No such file or directory" or "not UTF-8 text".
    public let reason: String
    /// Whether nothing is at `path` (a caller may treat a missing optional file as absent).
    public var isMissing = false
    public var description: String { "\(path): \(reason)" }
  }

  /// Whether `path` names a folder.
  public static func isDirectory(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
  }

  /// Whether there is something at `path`.
  public static func isReadable(_ path: String) -> Bool { access(path, R_OK) == 0 }

  /// Opens `path` for reading, refusing (before reading anything) anything but a regular file and a file
  /// larger than `limit` bytes: for inputs read a piece at a time. The caller closes the handle.
  public static func open(_ path: String, limit: Int) throws(ReadError) -> UnsafeMutablePointer<FILE> {
    let descriptor = openWithoutWaiting(path)
    guard descriptor >= 0 else {
      let missing = errno == ENOENT
      throw ReadError(path: path, reason: "cannot open: \(String(cString: strerror(errno)))", isMissing: missing)
    }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      let reason = "cannot read: \(String(cString: strerror(errno)))"
      close(descriptor)
      throw ReadError(path: path, reason: reason)
    }
    if let kind = nonRegularKind(status.st_mode) {
      close(descriptor)
      throw ReadError(path: path, reason: "is \(kind), not a regular file: only regular files are read")
    }
    if Int(status.st_size) > limit {
      close(descriptor)
      throw ReadError(
        path: path, reason: "is \(sizeText(Int(status.st_size))), above the \(sizeText(limit)) limit for this file")
    }
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
    guard let handle = fdopen(descriptor, "rb") else {
      let reason = "cannot read: \(String(cString: strerror(errno)))"
      close(descriptor)
      throw ReadError(path: path, reason: reason)
    }
    return handle
  }

  /// What a file of `mode` is when it is not a regular file (for the refusal); nil for a regular file.
  static func nonRegularKind(_ mode: mode_t) -> String? {
    switch mode & S_IFMT {
    case S_IFREG: nil
    case S_IFDIR: "a folder"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFIFO: "a FIFO (named pipe)"
    case S_IFSOCK: "a socket"
    default: "not a regular file"
    }
  }

  /// A size as messages give it: MiB from 1 MiB up, else KiB or bytes.
  static func sizeText(_ bytes: Int) -> String {
    if bytes >= 1 << 20 { return "\(bytes >> 20) MiB" }
    if bytes >= 1 << 10 { return "\(bytes >> 10) KiB" }
    return "\(bytes) bytes"
  }

  /// The file's bytes, refusing a file larger than `limit` before reading it.
  public static func readBytes(_ path: String, limit: Int) throws(ReadError) -> [UInt8] {
    let handle = try open(path, limit: limit)
    defer { fclose(handle) }
    return try readAll(handle, path: path, limit: limit)
  }

  /// Everything left in `handle`; more than `limit` bytes is an error (a file that grows while read).
  private static func readAll(_ handle: UnsafeMutablePointer<FILE>, path: String, limit: Int) throws(ReadError)
    -> [UInt8]
  {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = fread(&buffer, 1, buffer.count, handle)
      if count > 0 { bytes.append(contentsOf: buffer[0..<count]) }
      guard bytes.count <= limit else {
        throw ReadError(path: path, reason: "grew past the \(sizeText(limit)) limit for this file while read")
      }
      if count < buffer.count {
        if ferror(handle) != 0 {
          throw ReadError(path: path, reason: "cannot read: \(String(cString: strerror(errno)))")
        }
        return bytes
      }
    }
  }

  /// The file's contents, at most `limit` bytes, which must be UTF-8 text; with `lossy`, invalid bytes
  /// become U+FFFD instead (for files a crash may have cut mid-character).
  public static func read(_ path: String, limit: Int, lossy: Bool = false) throws(ReadError) -> String {
    let bytes = try readBytes(path, limit: limit)
    if lossy { return String(decoding: bytes, as: UTF8.self) }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw ReadError(path: path, reason: "not UTF-8 text")
    }
    return text
  }

  /// ``read(_:limit:lossy:)`` for a file a folder may lack: nil when nothing is at `path`; anything else
  /// that cannot be read (a device, a FIFO, a file past `limit`) is still an error.
  public static func readIfPresent(_ path: String, limit: Int) throws(ReadError) -> String? {
    do {
      return try read(path, limit: limit)
    } catch let error where error.isMissing {
      return nil
    }
  }
}

/// Opens `path` read-only and non-blocking, so that opening a FIFO does not wait for a writer (regular files
/// ignore the flag).
private func openWithoutWaiting(_ path: String) -> Int32 { open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
