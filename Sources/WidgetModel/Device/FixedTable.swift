/// A device's fixed set of parts (its widget instances, its Poisson processes), in memory the device owns:
/// changing one is a write through a pointer, where an array first checks that no one else holds its buffer
/// (a runtime call on every change: a reload changes its instance's state five or six times, a view twice,
/// a Poisson firing its process twice).
///
/// Copies share the elements (a reference, as a class would be): a ``DeviceSimulation`` is made, simulated in
/// place and taken apart, never copied, so each of its tables has one holder. Indices are checked, as an
/// array's are.
struct FixedTable<Element> {
  /// Owns the memory: frees it when the last table that shares it goes.
  private final class Storage {
    let buffer: UnsafeMutableBufferPointer<Element>

    init(_ elements: [Element]) {
      buffer = .allocate(capacity: elements.count)
      _ = buffer.initialize(from: elements)
    }

    deinit {
      buffer.deinitialize()
      buffer.deallocate()
    }
  }

  private let storage: Storage
  /// `storage.buffer`, held here so that reaching an element reads no class field.
  private let buffer: UnsafeMutableBufferPointer<Element>

  init(_ elements: [Element]) {
    storage = Storage(elements)
    buffer = storage.buffer
  }

  var count: Int { buffer.count }
  var indices: Range<Int> { 0..<buffer.count }

  subscript(index: Int) -> Element {
    @inline(__always) _read { yield buffer[checked(index)] }
    @inline(__always) nonmutating _modify { yield &buffer[checked(index)] }
  }

  /// `index`, once it is known to be in range.
  @inline(__always)
  private func checked(_ index: Int) -> Int {
    precondition(UInt(bitPattern: index) < UInt(bitPattern: buffer.count), "element \(index) of \(buffer.count)")
    return index
  }

  /// The elements' values (a copy), for setting up.
  var values: [Element] { Array(buffer) }

  func map<T>(_ transform: (Element) -> T) -> [T] { buffer.map(transform) }
  func filter(_ isIncluded: (Element) -> Bool) -> [Element] { buffer.filter(isIncluded) }
  func contains(where predicate: (Element) -> Bool) -> Bool { buffer.contains(where: predicate) }
}
