#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading a whole text file, without Foundation.
public enum TextFile {
  public struct ReadError: Error, CustomStringConvertible {
    public let path: String
    public var description: String { "cannot read \(path)" }
  }

  /// Whether `path` names a folder.
  public static func isDirectory(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
  }

  /// The file's contents as UTF-8 text (invalid bytes become U+FFFD).
  public static func read(_ path: String) throws(ReadError) -> String {
    guard let handle = fopen(path, "rb") else { throw ReadError(path: path) }
    defer { fclose(handle) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = fread(&buffer, 1, buffer.count, handle)
      bytes.append(contentsOf: buffer[0..<count])
      if count < buffer.count { break }
    }
    guard ferror(handle) == 0 else { throw ReadError(path: path) }
    return String(decoding: bytes, as: UTF8.self)
  }
}
