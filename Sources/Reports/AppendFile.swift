#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Appending to a file another program owns and reads after we exit (a CI system's step summary): one
/// `write` of the whole text with `O_APPEND`, so concurrent writers' texts do not interleave.
public enum AppendFile {
  public static func append(_ text: String, to path: String) throws(AtomicFile.WriteError) {
    let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw AtomicFile.error(path, "open") }
    defer { close(descriptor) }
    var text = text
    guard AtomicFile.writeAll(&text, to: descriptor) else { throw AtomicFile.error(path, "write") }
  }
}
