import SimulationEngine
import Testing

@testable import Results

/// Every fetch source's bytes are counted, wherever its case stands among the sources: a source added to
/// the table after the last one today must not fall out of the bytes.
@Suite("Bytes of every fetch source")
struct FetchSourceBytesTests {
  @Test("a fetch of each source adds its bytes to the minute's and the second's", arguments: ServerSource.fetches)
  func everySource(_ source: ServerSource) {
    var load = ServerLoad(days: 1, perSecond: true)
    let time = SimTime(microseconds: 10 * 3_600_000_000 + 250_000)
    load.recordFetch(source, bytes: 1_234, at: time, offset: .zero)
    load.applyPending()
    #expect(load.bytes.reduce(0, +) == 1_234, "\(source): per minute")
    let stream: ServerStream = source == .widgetFetch ? .source(.widgetFetch) : .appFetch
    let seconds = load.seconds
    let perSecond = (0..<seconds.secondCount).reduce(UInt64(0)) { $0 + seconds.bytes(second: $1, stream: stream) }
    #expect(perSecond == 1_234, "\(source): per second")
  }
}

extension ServerSource {
  /// The sources that fetch, in the table's order.
  static let fetches = allCases.filter(\.isFetch)
}
