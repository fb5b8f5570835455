#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writing the whole of a buffer to an open file descriptor: standard error for ``Console/standard``, and
/// every file and device the reports are written to.
public enum DescriptorWrite {
  /// How long a write waits for a device or FIFO opened without blocking to take more bytes before it fails.
  public static let timeoutMilliseconds: Int32 = 10_000

  /// Writes all of `text` to an open file descriptor, retrying short writes and interrupted calls; false
  /// (with `errno` set) when the write fails.
  public static func all(_ text: inout String, to descriptor: Int32) -> Bool {
    text.withUTF8 { all(UnsafeRawBufferPointer($0), to: descriptor) }
  }

  /// Writes all of `bytes` to an open file descriptor, as ``all(_:to:)-(String,_)`` does. On a
  /// descriptor opened without blocking (a device or FIFO) it waits for room at most
  /// `timeoutMilliseconds` at a time, then fails with `ETIMEDOUT`.
  public static func all(
    _ bytes: UnsafeRawBufferPointer, to descriptor: Int32,
    timeoutMilliseconds: Int32 = DescriptorWrite.timeoutMilliseconds
  ) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    var offset = 0
    while offset < bytes.count {
      let written = systemWrite(descriptor, base + offset, bytes.count - offset)
      if written < 0 && errno == EINTR { continue }
      if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
        var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        let ready = poll(&waiting, 1, timeoutMilliseconds)
        if ready < 0 && errno == EINTR { continue }
        if ready == 0 { errno = ETIMEDOUT }
        if ready <= 0 { return false }
        continue
      }
      if written <= 0 { return false }
      offset += written
    }
    return true
  }
}

/// `write(2)`, named apart from the functions that call it.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}
