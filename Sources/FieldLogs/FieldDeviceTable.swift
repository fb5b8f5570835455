/// The phones of a log by id, in order of first appearance: an index from id to place, and the phones' state
/// in chunks of fixed size. A million phones so cost their state and little more: a dictionary of the states
/// themselves keeps up to twice the buckets it needs, each as large as a phone's state, and one growing array
/// copies all of them at every doubling.
struct FieldDeviceTable {
  static let chunkSize = 4_096
  private var places: [String: Int32] = [:]
  private var chunks: [[FieldDevice]] = []
  /// The ids, in order of first appearance.
  private(set) var ids: [String] = []

  var count: Int { ids.count }

  /// The place of phone `id`, or nil when it has no record yet.
  func place(of id: String) -> Int? { places[id].map(Int.init) }

  /// The place of phone `id`, added (with a fresh state) when it has no record yet.
  mutating func placeAdding(_ id: String) -> Int {
    if let place = places[id] { return Int(place) }
    let place = ids.count
    places[id] = Int32(place)
    ids.append(id)
    if place % FieldDeviceTable.chunkSize == 0 {
      chunks.append([])
      chunks[chunks.count - 1].reserveCapacity(FieldDeviceTable.chunkSize)
    }
    chunks[chunks.count - 1].append(FieldDevice())
    return place
  }

  /// The state of the phone at `place`, changed in place.
  subscript(place: Int) -> FieldDevice {
    get { chunks[place / FieldDeviceTable.chunkSize][place % FieldDeviceTable.chunkSize] }
    _modify { yield &chunks[place / FieldDeviceTable.chunkSize][place % FieldDeviceTable.chunkSize] }
  }

  /// Calls `body` with every phone in order (its place and its state, to change as it likes), letting go of
  /// each chunk once its phones are done; the table is empty afterwards.
  mutating func forEachReleasing(_ body: (Int, inout FieldDevice) -> Void) {
    for chunk in chunks.indices {
      var phones = chunks[chunk]
      chunks[chunk] = []
      for offset in phones.indices { body(chunk * FieldDeviceTable.chunkSize + offset, &phones[offset]) }
    }
    self = FieldDeviceTable()
  }
}
