#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading a whole text file, without Foundation.
public enum TextFile {
  public struct ReadError: Error, CustomStringConvertible {
    public let path: String
    /// Why, e.g. "cannot open: No such file or directory" or "not UTF-8 text".
    public let reason: String
    public var description: String { "\(path): \(reason)" }
  }

  /// Whether `path` names a folder.
  public static func isDirectory(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
  }

  /// Whether there is something at `path`.
  public static func isReadable(_ path: String) -> Bool { access(path, R_OK) == 0 }

  /// Opens `path` for reading, refusing (before reading anything) a file larger than `limit` bytes: for
  /// inputs read a piece at a time. The caller closes the handle.
  public static func open(_ path: String, limit: Int) throws(ReadError) -> UnsafeMutablePointer<FILE> {
    guard let handle = fopen(path, "rb") else {
      throw ReadError(path: path, reason: "cannot open: \(String(cString: strerror(errno)))")
    }
    var status = stat()
    if fstat(fileno(handle), &status) == 0 && Int(status.st_size) > limit {
      fclose(handle)
      throw ReadError(
        path: path, reason: "is \(Int(status.st_size) >> 20) MiB, above the \(limit >> 20) MiB limit for this file")
    }
    return handle
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
      guard bytes.count <= limit else { throw ReadError(path: path, reason: "grew past \(limit >> 20) MiB while read") }
      if count < buffer.count {
        if ferror(handle) != 0 {
          throw ReadError(path: path, reason: "cannot read: \(String(cString: strerror(errno)))")
        }
        return bytes
      }
    }
  }

  /// The file's contents, which must be UTF-8 text; with `lossy`, invalid bytes become U+FFFD instead (for
  /// files a crash may have cut mid-character).
  public static func read(_ path: String, lossy: Bool = false) throws(ReadError) -> String {
    guard let handle = fopen(path, "rb") else {
      throw ReadError(path: path, reason: "cannot open: \(String(cString: strerror(errno)))")
    }
    defer { fclose(handle) }
    let bytes = try readAll(handle, path: path, limit: Int.max)
    if lossy { return String(decoding: bytes, as: UTF8.self) }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw ReadError(path: path, reason: "not UTF-8 text")
    }
    return text
  }
}
