import ResultStorage

/// The provisioning figures of a run's per-second load: one pass over the seconds feeding a histogram of
/// counts per stream.
extension ServerSeconds {
  /// The figures of what the servers receive, of what they send, and of every stream, in that order, scaled
  /// by `scale` real devices per simulated one (broadcast requests are the fleet's already). Empty when
  /// seconds are not kept. One pass over the seconds feeding a histogram of counts per stream: no copy of the
  /// series, no sort.
  public func provisioning(scale: Double) -> [ProvisioningFigures] {
    guard secondCount > 0 else { return [] }
    // One pass over the seconds: each second's counts are read once and go to every histogram, rather than
    // the whole series once per stream.
    var pass = ProvisioningPass(scale: scale)
    // Seconds without a request (most of a small fleet's) only add to every histogram's count of zeros; so do
    // a stream's own quiet seconds (most streams are quiet in most seconds), counted at the end.
    var next = 0
    while let second = busySecond(from: next) {
      next = second + 1
      pass.addRequests(of: second, counts)
      pass.addBytes(
        widget: fetchBytes[ServerSeconds.bytesBySecond.index(second, 0)],
        app: fetchBytes[ServerSeconds.bytesBySecond.index(second, 1)])
    }
    pass.addQuietSeconds(of: secondCount)
    return pass.figures(sentWithBroadcasts: pass.broadcasts ? sentWithBroadcasts(scale: scale) : nil)
  }

  /// What the servers send when broadcasts (fleet-wide, not scaled) are among the requests: rare (a
  /// broadcast channel in a second), so the exact figures by value, in a pass of their own.
  private func sentWithBroadcasts(scale: Double) -> ProvisioningFigures {
    var totals: [Double: Int] = [:]
    var peak = (value: 0.0, second: 0)
    var sum = 0.0
    for second in 0..<secondCount {
      var devices: UInt64 = 0
      for source in ServerSource.allCases where source.isPush && !source.isFleetWide {
        devices += requests(second: second, source: source)
      }
      let value = Double(devices) * scale + Double(requests(second: second, source: .broadcast))
      totals[value, default: 0] += 1
      sum += value
      if value > peak.value { peak = (value, second) }
    }
    let sorted = totals.sorted { $0.key < $1.key }
    return ProvisioningFigures(
      stream: ServerDirection.sent.name, meanPerSecond: sum / Double(secondCount),
      p99PerSecond: CountHistogram.p99(sorted.map { ($0.key, $0.value) }, total: secondCount),
      peakPerSecond: peak.value, peakSecond: peak.second, peakBytesPerSecond: nil)
  }
}

/// The histograms of one pass over a run's busy seconds: what the servers received, what devices sent, each
/// stream's requests, and the busiest bytes.
private struct ProvisioningPass {
  let scale: Double
  let streams = ServerStream.allCases
  let broadcast = ServerSource.broadcast.rawValue
  let fleetWide = ServerSource.allCases.map(\.isFleetWide)
  let sent = ServerSource.allCases.map(\.isPush)
  /// The stream of each source alone, and the streams of several (the app's fetches on every channel) with
  /// their sources' bits.
  let alone = ServerStream.partition.map(\.rawValue)
  let combined: [(Int, UInt64)]
  var received = CountHistogram()
  var sentByDevices = CountHistogram()
  var byStream: [CountHistogram]
  var mostBytes: [Double]
  /// Whether a broadcast channel sent in some second.
  var broadcasts = false
  var peakBytes = 0.0

  init(scale: Double) {
    self.scale = scale
    combined = streams.filter { $0.sources.count > 1 }.map { stream in
      (stream.rawValue, stream.sources.reduce(UInt64(0)) { $0 | 1 << UInt64($1.rawValue) })
    }
    precondition(alone.count + combined.count == streams.count, "a stream neither one source nor several")
    byStream = Array(repeating: CountHistogram(), count: streams.count)
    mostBytes = Array(repeating: 0.0, count: streams.count)
  }

  /// The requests of a busy second, by the sources that have any (a busy second of a small fleet has one or
  /// two).
  mutating func addRequests(of second: Int, _ counts: CompactCounts<UInt8>) {
    let first = ServerSource.bySlot.start(ofRow: second)
    let busy = counts.nonzeroCells(from: first, count: ServerSource.count)
    var into: UInt64 = 0
    var out: UInt64 = 0
    busy.forEachSetBit { source in
      let requests = counts[first + source]
      if !sent[source] {
        into += requests
      } else if !fleetWide[source] {
        out += requests
      }
      if source == broadcast { broadcasts = true }
      byStream[alone[source]].add(requests, second: second)
    }
    for (stream, sources) in combined where busy & sources != 0 {
      var requests: UInt64 = 0
      (busy & sources).forEachSetBit { requests += counts[first + $0] }
      byStream[stream].add(requests, second: second)
    }
    if into > 0 { received.add(into, second: second) }
    if out > 0 { sentByDevices.add(out, second: second) }
  }

  /// The bytes of a busy second fetched by widgets and by the app.
  mutating func addBytes(widget widgetBytes: UInt64, app appBytes: UInt64) {
    peakBytes = Swift.max(peakBytes, Double(widgetBytes + appBytes) * scale)
    let widget = ServerStream.source(.widgetFetch).rawValue
    mostBytes[widget] = Swift.max(mostBytes[widget], Double(widgetBytes) * scale)
    mostBytes[ServerStream.appFetch.rawValue] = Swift.max(
      mostBytes[ServerStream.appFetch.rawValue], Double(appBytes) * scale)
  }

  /// Every histogram's quiet seconds of the run's `secondCount`.
  mutating func addQuietSeconds(of secondCount: Int) {
    received.addZeros(secondCount - received.seconds)
    sentByDevices.addZeros(secondCount - sentByDevices.seconds)
    for stream in streams.indices { byStream[stream].addZeros(secondCount - byStream[stream].seconds) }
  }

  /// The figures received, sent (`sentWithBroadcasts` when broadcasts were sent), then by stream.
  func figures(sentWithBroadcasts: ProvisioningFigures?) -> [ProvisioningFigures] {
    var figures = [received.figures(ServerDirection.received.name, factor: scale, peakBytes: peakBytes)]
    figures.append(
      sentWithBroadcasts ?? sentByDevices.figures(ServerDirection.sent.name, factor: scale, peakBytes: nil))
    for (index, stream) in streams.enumerated() {
      figures.append(
        byStream[index].figures(
          stream.name, factor: stream.isFleetWide ? 1 : scale, peakBytes: stream.keepsBytes ? mostBytes[index] : nil))
    }
    return figures
  }
}
