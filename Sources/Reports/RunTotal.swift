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
  static let magic = Array("widgetsim-run-total 2\n".utf8)

  /// The sum of the replications added so far (nil before the first).
  private(set) var result: ReplicationResult?
  private(set) var replications = 0
  /// The busiest second of any replication so far (requests per second of the real fleet), and the rows of
  /// `server_peak.csv` around it.
  private(set) var peakRequests = -Double.infinity
  private(set) var peakRows = ""
  /// The replication whose rows ``peakRows`` are (`Int.max` before any).
  private(set) var peakReplication = Int.max

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

  /// Keeps the replication's busiest second (and its rows) when it beats every other so far.
  private mutating func notePeak(_ replication: borrowing ReplicationResult, peakRows: (ReplicationResult) -> String) {
    if let peak = replication.provisioning.first, beats(peak.peakPerSecond, replication.replication) {
      peakRequests = peak.peakPerSecond
      peakReplication = replication.replication
      self.peakRows = peakRows(copy replication)
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
    if replications > 0 { result = try ReplicationResult(from: &reader, configuration: configuration) }
    guard reader.isAtEnd else { throw reader.error("data after the result") }
  }
}
