#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Process-level output and exit, without Foundation.
enum Console {
  /// Writes `message` to standard error unbuffered (with `write(2)`, which needs no shared `FILE *`).
  static func error(_ message: String) {
    var text = message
    text.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = write(2, bytes.baseAddress! + offset, bytes.count - offset)
        if written <= 0 { return }
        offset += written
      }
    }
  }

  /// Ends the process with `code`.
  static func exit(_ code: Int32) -> Never {
    #if canImport(Glibc)
      Glibc.exit(code)
    #else
      Darwin.exit(code)
    #endif
  }
}
