#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The build of widgetsim that is running: sweeps (their journals) and fleet shards (their `shard.txt`)
/// record it, and `merge` refuses to combine the work of two different builds, whose models may differ.
public enum BuildIdentity {
  /// A hash of the running executable's bytes (any rebuild that could change results changes it), computed
  /// once per process; `unknown` where the executable cannot be read.
  public static let executable: String = {
    #if canImport(Glibc)
      let descriptor = open("/proc/self/exe", O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else { return "unknown" }
      defer { close(descriptor) }
      var hash: UInt64 = 0xCBF2_9CE4_8422_2325
      var bytes = [UInt8](repeating: 0, count: 1 << 17)
      var total = 0
      while true {
        // Fill the block before hashing it, so the hash does not depend on how `read` splits the file.
        var filled = 0
        while filled < bytes.count {
          let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
          if count < 0 && errno == EINTR { continue }
          guard count > 0 else { break }
          filled += count
        }
        guard filled > 0 else { break }
        total += filled
        bytes.withUnsafeBytes { raw in
          var offset = 0
          while offset + 8 <= filled {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x0000_0100_0000_01B3
            offset += 8
          }
          while offset < filled {
            hash = (hash ^ UInt64(raw[offset])) &* 0x0000_0100_0000_01B3
            offset += 1
          }
        }
        if filled < bytes.count { break }
      }
      return Manifest.hexadecimal(hash ^ UInt64(total))
    #else
      return "unknown"
    #endif
  }()
}
