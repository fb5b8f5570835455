import SimulationEngine
import WidgetModel

/// What a run's default reports are written from: every finished replication's result added up (the reports
/// give the mean over them), and the replication with the busiest second so far (`server_peak.csv` shows it).
/// An interrupted run keeps it in `resume.bin`, so `run --resume` carries on from the same sums.
struct RunTotal {
  /// The file beside `resume.txt`.
  static let file = "resume.bin"
  static let magic = Array("widgetsim-run-total 1\n".utf8)

  /// The sum of the replications added so far (nil before the first).
  private(set) var result: ReplicationResult?
  private(set) var replications = 0
  /// The busiest second of any replication so far (requests per second of the real fleet), and the rows of
  /// `server_peak.csv` around it.
  private(set) var peakRequests = -Double.infinity
  private(set) var peakRows = ""

  init() {}

  /// Adds one replication's result; `peakRows` renders that replication's `server_peak.csv` rows, asked for
  /// only when its busiest second beats every earlier one.
  mutating func add(_ replication: ReplicationResult, peakRows: () -> String) {
    if result == nil {
      result = replication
    } else {
      result!.merge(replication)  // in place: no copy of the sums
    }
    replications += 1
    if let peak = replication.provisioning.first, peak.peakPerSecond > peakRequests {
      peakRequests = peak.peakPerSecond
      self.peakRows = peakRows()
    }
  }

  /// The state in binary, for `identity`'s run, with an FNV-1a checksum.
  func encoded(identity: String) -> [UInt8] {
    var writer = BinaryWriter(magic: RunTotal.magic)
    writer.text(identity)
    writer.unsigned(UInt64(replications))
    writer.double(peakRequests)
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
    peakRows = try reader.text()
    if replications > 0 { result = try ReplicationResult(from: &reader, configuration: configuration) }
    guard reader.isAtEnd else { throw reader.error("data after the result") }
  }
}
