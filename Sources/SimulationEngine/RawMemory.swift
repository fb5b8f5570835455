#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension UnsafeMutableRawBufferPointer {
  /// Sets every byte to zero with the C library's `memset` (vectorised; `initializeMemory(as:repeating:)`
  /// compiles to a byte loop where the element type is generic): for emptying integer counters, whose zero
  /// is all zero bytes.
  @inlinable
  public func zeroBytes() {
    guard let start = baseAddress, count > 0 else { return }
    memset(start, 0, count)
  }
}
