#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Appending to a file another program owns and reads after we exit (a CI system's step summary): one
/// `write` of the whole text with `O_APPEND`, so concurrent writers' texts do not interleave. Opened without
/// blocking, as ``OutputDevice`` opens a device: a FIFO no process reads is an error at once, and a reader
/// that stops reading one times the write out, so neither hangs the command.
public enum AppendFile {
  public static func append(_ text: String, to path: String) throws(AtomicFile.WriteError) {
    let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw OutputDevice.openError(path) }
    defer { close(descriptor) }
    var text = text
    guard AtomicFile.writeAll(&text, to: descriptor) else { throw AtomicFile.error(path, "write") }
  }
}
