import Results

/// The app's data, one source per widget kind: how often it changes on the server, whether the server then
/// sends a WidgetKit push, what the app does when it learns of the change, and which instances show it.
struct DataSources {
  struct Source {
    let changes: HourlyRate
    let onChange: DataChangeAction
    /// The pushes the server sends on every change, in the table's order.
    let pushes: [PushKind]
    /// The kind's instances are `members[range]`.
    let range: Range<Int>
  }

  let sources: [Source]
  /// Instance IDs grouped by kind, in one flat array (a change walks a range instead of retaining an
  /// inner array).
  let members: [InstanceID]

  init(configuration: borrowing ScenarioConfiguration, kindOfInstance: [KindID]) {
    let kinds = configuration.kinds
    var byKind = Array(repeating: [InstanceID](), count: kinds.count)
    for (index, kind) in kindOfInstance.enumerated() { byKind[kind.index].append(InstanceID(index)) }
    members = byKind.flatMap { $0 }
    var start = 0
    var sources: [Source] = []
    for (index, kind) in kinds.enumerated() {
      let data = configuration.widgets.first { $0.dataKey == kind }?.data ?? DataConfiguration()
      sources.append(
        Source(
          changes: data.changes, onChange: data.onChange, pushes: PushKind.ordered(data.pushes),
          range: start..<(start + byKind[index].count)))
      start += byKind[index].count
    }
    self.sources = sources
  }
}
