import SimulationEngine
import Testing

@testable import Results
@testable import WidgetModel

/// The per-second load: compact counts stay exact past their cell size, and the provisioning figures equal
/// the ones computed from the whole series.
@Suite("Per-second server load")
struct ServerSecondsTests {
  @Test("the summary's one-pass minute totals equal the per-minute series and source totals")
  func minuteTotalsMatchTheSeries() {
    let load = ServerLoadBusyMinutesTests.load(20_000, seed: 9)
    let totals = load.minuteTotals()
    // The series summed here from each minute's count by source, as a reader of server_load.csv would.
    func perMinute(_ included: (ServerSource) -> Bool) -> [Int64] {
      (0..<load.minuteCount).map { slot in
        ServerSource.allCases.filter(included).reduce(0) { $0 + load.requests(slot: slot, source: $1) }
      }
    }
    let devicePushes = perMinute { $0.isPush && !$0.isFleetWide }
    let broadcasts = perMinute { $0 == .broadcast }
    #expect(totals.fetches == perMinute(\.isFetch))
    #expect(totals.devicePushes == devicePushes)
    let scaled: [Double] = zip(broadcasts, devicePushes).map { (broadcast: Int64, push: Int64) -> Double in
      Double(broadcast) + Double(push) * 3.5
    }
    #expect(totals.pushesSent(scale: 3.5) == scaled)
    #expect(totals.sourceTotals == ServerSource.allCases.map { load.total($0) })
    #expect(totals.broadcasts == broadcasts)
    #expect(ServerSource.allCases.allSatisfy { totals.sourceTotals[$0.rawValue] > 0 })
  }

  @Test("requests are kept while a device runs and added to the minutes and seconds as recorded one by one")
  func pendingRequests() {
    var load = ServerLoad(days: 1, perSecond: true)
    func local(_ seconds: Double) -> SimTime { SimTime(microseconds: Int64(seconds * 1e6)) }
    // A device an hour ahead of UTC fetches at 00:00:30 local: UTC 23:00:30 the day before, minute 14 h - 59.5
    // min after the first minute (780), before the run's first second (not counted per second).
    load.recordFetch(.widgetFetch, bytes: 1_000, at: local(30), offset: .hours(1))
    // At 10:00:00.5 UTC: the app's fetch, a push sent and a push delivered, a token registration.
    let ten = local(36_000.5)
    load.recordFetch(.appFetchBackgroundRefresh, bytes: 500.4, at: ten, offset: .zero)
    load.recordPush(.widgetPush, delivered: false, at: ten, offset: .zero)
    load.recordPush(.widgetPush, delivered: true, at: ten, offset: .zero)
    load.recordFetch(.tokenRegistration, bytes: 0, at: ten, offset: .zero)
    // Past the last minute (day 1 + 14 h UTC): dropped.
    load.recordFetch(.widgetFetch, bytes: 7, at: local(86_400 + 14 * 3_600 + 1), offset: .zero)
    #expect(load.total(.widgetFetch) == 0, "nothing is added before applyPending")
    load.applyPending()
    let slot = 14 * 60 + 600
    #expect(load.requests(slot: 780, source: .widgetFetch) == 1 && load.bytes[780] == 1_000)
    #expect(load.requests(slot: slot, source: .appFetchBackgroundRefresh) == 1)
    #expect(load.requests(slot: slot, source: .widgetPush) == 1 && load.pushesDelivered[slot] == 1)
    #expect(load.requests(slot: slot, source: .tokenRegistration) == 1)
    #expect(load.bytes[slot] == 500, "fetched bytes only, rounded to the nearest byte")
    #expect(load.total(.widgetFetch) == 1, "the request past the end is dropped")
    #expect(load.seconds.requests(second: 36_000, source: .appFetchBackgroundRefresh) == 1)
    #expect(load.seconds.requests(second: 36_000, source: .widgetPush) == 1, "a push sent, not its delivery")
    #expect(load.seconds.bytes(second: 36_000, stream: .appFetch) == 500)
    #expect((0..<86_400).allSatisfy { load.seconds.requests(second: $0, source: .widgetFetch) == 0 })
    // A device that records more than the buffer holds has the rest added on the way, none lost.
    for index in 0..<(ServerLoad.pendingLimit + 10) {
      load.recordPush(.silentPush, delivered: false, at: local(Double(index % 60)), offset: .zero)
    }
    load.applyPending()
    #expect(load.total(.silentPush) == Int64(ServerLoad.pendingLimit + 10))
    #expect(load.seconds.requests(second: 0, source: .silentPush) == UInt64((ServerLoad.pendingLimit + 10 + 59) / 60))
  }

  @Test("mean, p99 and peak from the histogram equal those of the sorted series")
  func figuresMatchSortedSeries() {
    var seconds = ServerSeconds(days: 1)
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: 9, replication: 0, entity: 0, stream: 2))
    var series = Array(repeating: 0.0, count: 86_400)
    for _ in 0..<200_000 {
      // A skewed load: most requests in the first hour, a burst of 600 in second 50,000.
      let second = stream.bernoulli(0.7) ? Int(stream.uniform() * 3_600) : Int(stream.uniform() * 86_400)
      seconds.record(.widgetFetch, bytes: 1_000, at: SimTime(microseconds: Int64(second) * 1_000_000), offset: .zero)
      series[second] += 1
    }
    for _ in 0..<600 {
      seconds.record(.widgetFetch, bytes: 1_000, at: SimTime(microseconds: 50_000 * 1_000_000), offset: .zero)
      series[50_000] += 1
    }
    let figures = seconds.provisioning(scale: 10)
    let fetch = figures.first { $0.stream == "widget_fetch" }!
    let sorted = series.sorted()
    let rank = 0.99 * Double(sorted.count - 1)
    let lower = Int(rank)
    let p99 = sorted[lower] + (rank - Double(lower)) * (sorted[lower + 1] - sorted[lower])
    #expect(abs(fetch.p99PerSecond - p99 * 10) < 1e-9)
    #expect(fetch.peakPerSecond == sorted.last! * 10 && fetch.peakSecond == 50_000)
    #expect(abs(fetch.meanPerSecond - 200_600 * 10 / 86_400) < 1e-9)
    #expect(fetch.peakBytesPerSecond == sorted.last! * 10 * 1_000)
    #expect(figures.first?.stream == "received" && figures.first?.peakPerSecond == fetch.peakPerSecond)
    #expect(figures[1].stream == "sent" && figures[1].peakPerSecond == 0)
    // App fetches count once in what is received, under their channel and under app_fetch.
    seconds.record(.appFetchForeground, bytes: 0, at: SimTime(microseconds: 50_000 * 1_000_000), offset: .zero)
    seconds.record(.appFetchSilentPush, bytes: 0, at: SimTime(microseconds: 50_000 * 1_000_000), offset: .zero)
    // A broadcast (the fleet's own request, not scaled) takes the exact path for what is sent, and is never
    // added to what is received.
    seconds.record(.broadcast, bytes: 0, at: SimTime(microseconds: 50_000 * 1_000_000), offset: .zero)
    let more = seconds.provisioning(scale: 10)
    #expect(more.first { $0.stream == "app_fetch" }?.peakPerSecond == 20)
    #expect(more.first { $0.stream == "app_fetch_foreground" }?.peakPerSecond == 10)
    #expect(more.first?.peakPerSecond == (sorted.last! + 2) * 10)
    #expect(more[1].peakPerSecond == 1 && more[1].peakSecond == 50_000)
    #expect(abs(more.first!.p99PerSecond - p99 * 10) < 1e-9)
    // A stream without a request: every second quiet, its figures zero, its peak at the first second.
    let silent = more.first { $0.stream == "silent_push" }
    #expect(silent?.meanPerSecond == 0 && silent?.p99PerSecond == 0 && silent?.peakPerSecond == 0)
    #expect(silent?.peakSecond == 0 && silent?.peakBytesPerSecond == nil)
  }

  @Test(
    "every stream's figures equal those of its own series: busy seconds at both ends, past a cell's limit, broadcasts"
  )
  func everyStreamMatchesItsSeries() {
    let days = 2
    var seconds = ServerSeconds(days: days)
    let count = days * 86_400
    let sources = ServerSource.allCases.filter { !$0.isFleetWide }
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: 11, replication: 0, entity: 0, stream: 3))
    var at: [(second: Int, source: ServerSource, bytes: Double)] = [
      (0, .widgetFetch, 700), (count - 1, .appFetchForeground, 300), (count - 1, .widgetPush, 0),
    ]
    for _ in 0..<30_000 {
      let source = sources[Int(stream.uniform() * Double(sources.count))]
      at.append(
        (Int(stream.uniform() * Double(count)), source, source.isFetch ? Double(Int(stream.uniform() * 5_000)) : 0))
    }
    // Past a one-byte cell's limit: second 77,777 holds 300 widget fetches and 260 background app fetches.
    at += Array(repeating: (77_777, ServerSource.widgetFetch, 10), count: 300)
    at += Array(repeating: (77_777, ServerSource.appFetchBackgroundRefresh, 20), count: 260)
    // A broadcast channel's updates (the fleet's own requests, not scaled), some in seconds of nothing else.
    at += [(3, .broadcast, 0), (4_321, .broadcast, 0), (count - 2, .broadcast, 0), (0, .broadcast, 0)]
    for request in at {
      seconds.record(
        request.source, bytes: request.bytes, at: SimTime(microseconds: Int64(request.second) * 1_000_000),
        offset: .zero)
    }
    let scale = 3.0
    let figures = seconds.provisioning(scale: scale)
    /// The figures of a series, worked out directly: sorted for the p99 (Hyndman-Fan 7), the first busiest.
    func expected(_ name: String, _ values: [Double], bytes: [Double]?) -> ProvisioningFigures {
      let sorted = values.sorted()
      let rank = 0.99 * Double(count - 1)
      let lower = Int(rank)
      let peak = sorted.last!
      return ProvisioningFigures(
        stream: name, meanPerSecond: values.reduce(0, +) / Double(count),
        p99PerSecond: sorted[lower] + (rank - Double(lower)) * (sorted[lower + 1] - sorted[lower]),
        peakPerSecond: peak, peakSecond: values.firstIndex(of: peak)!,
        peakBytesPerSecond: bytes.map { $0.max()! * scale })
    }
    func series(_ sources: [ServerSource]) -> [UInt64] {
      (0..<count).map { second in sources.reduce(0) { $0 + seconds.requests(second: second, source: $1) } }
    }
    let widgetBytes = (0..<count).map { Double(seconds.bytes(second: $0, stream: .source(.widgetFetch))) }
    let appBytes = (0..<count).map { Double(seconds.bytes(second: $0, stream: .appFetch)) }
    // What is received: every phone's fetches and registrations, scaled; what is sent: every phone's pushes
    // scaled, plus the broadcasts as they are.
    let received = series(sources.filter { !$0.isPush }).map { Double($0) * scale }
    let sent = zip(series(sources.filter(\.isPush)), series([.broadcast])).map { Double($0) * scale + Double($1) }
    var wanted = [
      expected("received", received, bytes: zip(widgetBytes, appBytes).map { $0 + $1 }),
      expected("sent", sent, bytes: nil),
    ]
    for stream in ServerStream.allCases {
      let bytes = stream == .source(.widgetFetch) ? widgetBytes : stream == .appFetch ? appBytes : nil
      let factor = stream.isFleetWide ? 1 : scale
      wanted.append(expected(stream.name, series(stream.sources).map { Double($0) * factor }, bytes: bytes))
    }
    #expect(figures.count == wanted.count)
    for (got, want) in zip(figures, wanted) {
      #expect(got.stream == want.stream)
      #expect(abs(got.meanPerSecond - want.meanPerSecond) <= 1e-12 * Swift.max(1, want.meanPerSecond), "\(want.stream)")
      #expect(abs(got.p99PerSecond - want.p99PerSecond) <= 1e-9, "\(want.stream)")
      #expect(got.peakPerSecond == want.peakPerSecond && got.peakSecond == want.peakSecond, "\(want.stream)")
      #expect(got.peakBytesPerSecond == want.peakBytesPerSecond, "\(want.stream)")
    }
    #expect(figures[0].peakSecond == 77_777 && figures[0].peakPerSecond >= 560 * scale)
    #expect(figures.first { $0.stream == "broadcast" }?.meanPerSecond == 4 / Double(count), "not scaled")
  }
}
