import Results
import WidgetModel

/// `resume.txt`: what an interrupted run had finished, so `widgetsim run --resume` can carry on from the
/// next replication and write the same reports an uninterrupted run writes.
///
/// An interrupted run commits its reports with the replications it finished (manifest.json says
/// `"complete": false`) and this file beside them. Format: a header `widgetsim-run-resume 1 IDENTITY`, then
/// `events N`, then one `replication R FINGERPRINT` line per finished replication, in order.
public struct RunProgress: Sendable, Equatable {
  public struct ResumeError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { message }
  }

  /// The file's name inside the run's folder.
  public static let file = "resume.txt"

  /// Identifies what was run (see ``identity(_:perDevice:)``): a resume must match it.
  public let identity: String
  public let eventsHandled: UInt64
  /// One per finished replication, in order.
  public let fingerprints: [ReplicationFingerprint]

  public var replicationsCompleted: Int { fingerprints.count }

  public init(identity: String, eventsHandled: UInt64, fingerprints: [ReplicationFingerprint]) {
    self.identity = identity
    self.eventsHandled = eventsHandled
    self.fingerprints = fingerprints
  }

  /// Everything that decides a run's reports: version, scenario text, every override, `--per-device`,
  /// `--detail`.
  public static func identity(_ metadata: RunMetadata, perDevice: Bool, detail: Bool = false) -> String {
    let parts =
      [metadata.widgetsimVersion, metadata.scenarioText, "\(perDevice)"] + (detail ? ["detail"] : [])
      + metadata.overrides
    return Manifest.hexadecimal(Manifest.fnv1a64(parts.joined(separator: "\u{0}")))
  }

  public var text: String {
    var lines = ["widgetsim-run-resume 1 \(identity)", "events \(eventsHandled)"]
    for (replication, fingerprint) in fingerprints.enumerated() {
      lines.append("replication \(replication) \(fingerprint.hexadecimal)")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Reads `directory`'s resume file; errors say what is wrong and what to do.
  public static func read(directory: String) throws(ResumeError) -> RunProgress {
    let path = "\(directory)/\(file)"
    let text: String
    do {
      text = try TextFile.read(path, limit: InputLimits.descriptionBytes)
    } catch {
      throw ResumeError(
        message: "\(path): cannot resume: \(error.reason) (only a run stopped by Ctrl-C or SIGTERM can be resumed)")
    }
    func bad(_ line: Int) -> ResumeError {
      ResumeError(message: "\(path):\(line): not a widgetsim resume file; rerun without --resume (and with --force)")
    }
    let lines = text.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    guard lines.count >= 2, lines[0].count == 3, lines[0][0] == "widgetsim-run-resume", lines[0][1] == "1"
    else { throw bad(1) }
    guard lines[1].count == 2, lines[1][0] == "events", let events = UInt64(lines[1][1]) else { throw bad(2) }
    var fingerprints: [ReplicationFingerprint] = []
    for (offset, line) in lines.dropFirst(2).enumerated() {
      guard line.count == 3, line[0] == "replication", Int(line[1]) == offset, line[2].count == 16,
        let value = UInt64(line[2], radix: 16)
      else { throw bad(offset + 3) }
      fingerprints.append(ReplicationFingerprint(value: value))
    }
    return RunProgress(identity: lines[0][2], eventsHandled: events, fingerprints: fingerprints)
  }
}
