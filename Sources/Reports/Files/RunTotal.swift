import Results
import SimulationEngine
import WidgetModel

/// What a run's default reports are written from: every finished replication's result added up (the reports
/// give the mean over them), and the replication with the busiest second so far (`server_peak.csv` shows it).
/// An interrupted run keeps it in `resume.bin`, so `run --resume` carries on from the same sums.
///
/// Results add up exactly (integers: see ``ReplicationResult``), and of equally busy seconds the earliest
/// replication's is kept, so totals of any replications added in any order and then merged come out the
/// same: replications run side by side are summed on the threads that ran them (``ReplicationSums``).
struct RunTotal: Sendable {
  /// The file beside `resume.txt`.
  static let file = "resume.bin"
  static let magic = Array("widgetsim-run-total 3\n".utf8)

  /// The sum of the replications added so far (nil before the first).
  private(set) var result: ReplicationResult?
  private(set) var replications = 0
  /// The busiest second of any replication so far (requests per second of the real fleet), and the rows of
  /// `server_peak.csv` around it.
  private(set) var peakRequests = -Double.infinity
  private(set) var peakRows = ""
  /// The replication whose rows ``peakRows`` are (`Int.max` before any).
  private(set) var peakReplication = Int.max
  /// Per ``ServerDirection``: the largest busiest second of any replication so far, as the console says it.
  private(set) var largest: [LargestPeak] = ServerDirection.allCases.map { _ in LargestPeak() }
  /// The herds nothing in the scenario explains, of the earliest replication that had any (`Int.max`: none).
  private(set) var herdReplication = Int.max
  private(set) var herds: [String] = []

  init() {}

  /// Adds one replication's result; `peakRows` renders that replication's `server_peak.csv` rows, asked for
  /// only when its busiest second beats every other so far. Returns the result when it was added into the
  /// sum (its memory can serve another replication), nil when it became the sum.
  @discardableResult
  mutating func add(
    _ replication: consuming ReplicationResult, peakRows: (ReplicationResult) -> String
  ) -> ReplicationResult? {
    combine(replication, peakRows: peakRows) { sum, replication in sum.merge(replication) }  // in place: no copy
  }

  /// Adds one replication's result, as ``add(_:peakRows:)`` does, emptying it in the same pass where it can
  /// (``ReplicationResult/absorb(_:)``): for a result no one else holds (a copy would copy what is emptied).
  /// Returns it, part emptied, to be reset before it serves another replication; nil when it became the sum.
  mutating func absorb(
    _ replication: consuming ReplicationResult, peakRows: (ReplicationResult) -> String
  ) -> ReplicationResult? {
    combine(replication, peakRows: peakRows) { sum, replication in sum.absorb(&replication) }
  }

  /// Counts the replication and adds it into the sum with `into` (or makes it the sum: then nil).
  private mutating func combine(
    _ replication: consuming ReplicationResult, peakRows: (ReplicationResult) -> String,
    _ into: (inout ReplicationResult, inout ReplicationResult) -> Void
  ) -> ReplicationResult? {
    notePeak(replication, peakRows: peakRows)
    replications += 1
    guard result != nil else {
      var replication = replication
      replication.applyKeptRequests()  // a sum is read minute by minute
      result = consume replication
      return nil
    }
    var replication = replication
    into(&result!, &replication)
    return replication
  }

  /// Keeps the replication's busiest second (and its rows) when it beats every other so far, each direction's
  /// largest, and its herds when it is the earliest with any.
  private mutating func notePeak(_ replication: borrowing ReplicationResult, peakRows: (ReplicationResult) -> String) {
    if let peak = replication.provisioning.first, beats(peak.peakPerSecond, replication.replication) {
      peakRequests = peak.peakPerSecond
      peakReplication = replication.replication
      self.peakRows = peakRows(copy replication)
    }
    notePeaks(replication)
  }

  /// Notes the replication's busiest seconds and herds, without adding it (a run with `--detail` writes
  /// each replication's rows and keeps no sum).
  mutating func notePeaks(_ replication: borrowing ReplicationResult) {
    for peak in replication.perSecond.peaks {
      largest[peak.direction.rawValue].note(LargestPeak(peak, replication: replication.replication))
    }
    let unexplained = replication.perSecond.herds.filter { $0.explanation == nil }
    if !unexplained.isEmpty, replication.replication < herdReplication {
      herdReplication = replication.replication
      herds = unexplained.map { LargestPeak.describe($0, replication: replication.replication) }
    }
  }

  /// Adds another total's replications (none of them already here). Returns the other's sum when it was
  /// added into this one, nil when it became this one's.
  mutating func merge(_ other: consuming RunTotal) -> ReplicationResult? {
    if beats(other.peakRequests, other.peakReplication) {
      peakRequests = other.peakRequests
      peakReplication = other.peakReplication
      peakRows = other.peakRows
    }
    for direction in largest.indices { largest[direction].note(other.largest[direction]) }
    if other.herdReplication < herdReplication {
      herdReplication = other.herdReplication
      herds = other.herds
    }
    replications += other.replications
    guard let sum = other.result.take() else { return nil }
    guard result != nil else {
      result = sum
      return nil
    }
    result!.merge(sum)
    return sum
  }

  /// Whether a busiest second of `requests` in `replication` beats this total's: busier, or as busy in an
  /// earlier replication.
  private func beats(_ requests: Double, _ replication: Int) -> Bool {
    requests > peakRequests || (requests == peakRequests && replication < peakReplication)
  }

  /// The state in binary, for `identity`'s run, with an FNV-1a checksum.
  func encoded(identity: String) -> [UInt8] {
    var writer = BinaryWriter(magic: RunTotal.magic)
    writer.text(identity)
    writer.unsigned(UInt64(replications))
    writer.double(peakRequests)
    writer.unsigned(UInt64(peakReplication))
    writer.text(peakRows)
    for peak in largest {
      writer.double(peak.requests)
      writer.unsigned(UInt64(clamping: peak.replication))
      writer.text(peak.text)
    }
    writer.unsigned(UInt64(clamping: herdReplication))
    writer.unsigned(UInt64(herds.count))
    for herd in herds { writer.text(herd) }
    if let result { result.encode(to: &writer) }
    return writer.checksummedBytes
  }

  /// Reads what ``encoded(identity:)`` wrote for `identity`'s run of `configuration`.
  init(decoding bytes: [UInt8], identity: String, configuration: ScenarioConfiguration) throws(BinaryDecodingError) {
    var reader = try BinaryReader(checksummed: bytes, magic: RunTotal.magic, kind: "run total")
    guard try reader.text() == identity else { throw reader.error("it belongs to another run") }
    replications = Int(try reader.unsigned())
    peakRequests = try reader.double()
    peakReplication = Int(clamping: try reader.unsigned())
    peakRows = try reader.text()
    for direction in largest.indices {
      let requests = try reader.double()
      let replication = Int(clamping: try reader.unsigned())
      largest[direction] = LargestPeak(requests: requests, replication: replication, text: try reader.text())
    }
    herdReplication = Int(clamping: try reader.unsigned())
    let herdCount = try reader.unsigned()
    guard herdCount <= UInt64(ServerSource.allCases.count) else { throw reader.error("more herds than sources") }
    herds = []
    for _ in 0..<herdCount { herds.append(try reader.text()) }
    if replications > 0 { result = try ReplicationResult(from: &reader, configuration: configuration) }
    guard reader.isAtEnd else { throw reader.error("data after the result") }
  }
}

/// The largest busiest second of one side of the servers' load over a run's replications, described for the
/// console: its size, when, what made it, and what the scenario says happens then. Of equal ones, the
/// earliest replication's.
struct LargestPeak: Sendable, Equatable {
  var requests = -Double.infinity
  var replication = Int.max
  var text = ""

  init() {}

  init(requests: Double, replication: Int, text: String) {
    self.requests = requests
    self.replication = replication
    self.text = text
  }

  init(_ peak: PeakSecond, replication: Int) {
    requests = peak.requests
    self.replication = replication
    text =
      "\(RunSummaryText.fixed(peak.requests, 0)) in replication \(replication), "
      + LargestPeak.when(peak.second)
      + LargestPeak.breakdown(total: peak.requests, sources: peak.sources.map(\.name), requests: peak.sourceRequests)
      + (peak.explanation.map { "; the scenario: \($0)" }
        ?? (peak.isHerd ? "; a herd nothing in the scenario explains" : "; phones acting apart, no herd"))
  }

  /// ` (source N, source N, source N, and K more)`: the three largest sources of a second's `total`, and when
  /// the sources do not add up to it (a sampled fleet's estimates, each made apart), what they add up to.
  static func breakdown(total: Double, sources: [String], requests: [Double]) -> String {
    guard !sources.isEmpty else { return "" }
    var parts = zip(sources, requests).prefix(3).map { "\($0) \(RunSummaryText.fixed($1, 0))" }
    if sources.count > 3 { parts.append("\(sources.count - 3) more") }
    let sum = requests.reduce(0, +)
    if abs(sum - total) > Swift.max(1, 0.005 * abs(total)) {
      parts.append(
        "each estimated from the sample apart, they add up to \(RunSummaryText.fixed(sum, 0)), not "
          + RunSummaryText.fixed(total, 0))
    }
    return " (" + parts.joined(separator: ", ") + ")"
  }

  /// Keeps `other` when it is larger, or as large in an earlier replication.
  mutating func note(_ other: LargestPeak) {
    if other.requests > requests || (other.requests == requests && other.replication < replication) { self = other }
  }

  /// `day D at HH:MM:SS UTC` of a second since 00:00 UTC of the first measured day.
  static func when(_ second: Int) -> String {
    "day \(second / 86_400) at \(ClockText.seconds(second % 86_400)) UTC"
  }

  /// A herd as a warning says it.
  static func describe(_ herd: Herd, replication: Int) -> String {
    "\(herd.phones) simulated phones (\(RunSummaryText.fixed(herd.share * 100, 1))% of the fleet) made "
      + "\(herd.source.name) requests in the same second, \(when(herd.second)) (replication \(replication)), and "
      + "nothing the scenario says happens then"
  }
}
