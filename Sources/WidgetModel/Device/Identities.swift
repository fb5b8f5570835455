// The model's own identities: a widget kind, an activity of one device, a process of the device's table.
// A widget instance, a Live Activity kind and a push target also name results: those are in `Results`.

/// A distinct widget kind of the run: its position in ``ScenarioConfiguration/kinds``.
struct KindID: Hashable {
  let index: Int
  init(_ index: Int) { self.index = index }
}

/// One started (or refused) Live Activity on one device: its position among that device's attempts.
struct ActivityID: Hashable {
  let index: Int
  init(_ index: Int) { self.index = index }
  var eventTarget: UInt32 { UInt32(index) }
}

/// One of the device's Poisson processes: its position in the process table.
struct ProcessID: Hashable {
  let index: Int
  init(_ index: Int) { self.index = index }
  var eventTarget: UInt32 { UInt32(index) }
}
