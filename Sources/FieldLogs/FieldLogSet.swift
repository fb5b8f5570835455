import Reports
import SimulationEngine
import WidgetModel

/// The field logs a command reads, in one pass: each record to the half of the phones it belongs to
/// (``holdout``: the share of phones kept aside to check the fit on, chosen by a hash of their id).
public struct FieldLogSet {
  public var fit: FieldObservations
  public var check: FieldObservations
  public let holdout: Double
  public private(set) var reader = FieldLogReader()
  public private(set) var serverReader = ServerLogReader()

  public init(refreshIntervalSeconds: Double, lowBattery: Double, holdout: Double) {
    fit = FieldObservations(refreshIntervalSeconds: refreshIntervalSeconds, lowBattery: lowBattery)
    check = fit
    self.holdout = holdout
  }

  /// The logs of the app `base` describes.
  public init(base: ScenarioConfiguration, holdout: Double) {
    fit = FieldObservations(base: base)
    check = fit
    self.holdout = holdout
  }

  /// Reads every file of `paths` (the app's logs) and of `serverLogs` (the server's send logs), the app's logs'
  /// lines parsed on `jobs` threads; a bad line is an error naming its file and line.
  public mutating func read(_ paths: [String], serverLogs: [String] = [], jobs: Int = 1) throws(FieldLogError) {
    // Local copies: the reader's callback adds to the observations while the reader runs.
    var (reader, serverReader, fit, check) = (self.reader, self.serverReader, self.fit, self.check)
    defer { (self.reader, self.serverReader, self.fit, self.check) = (reader, serverReader, fit, check) }
    let holdout = self.holdout
    for (path, isServer) in paths.map({ ($0, false) }) + serverLogs.map({ ($0, true) }) {
      let add = { (entry: FieldLogEntry, line: Int) throws(FieldLogError) in
        let heldOut = holdout > 0 && FieldLogSet.share(entry.device) < holdout
        if let problem = heldOut ? check.add(entry) : fit.add(entry) {
          throw FieldLogError(file: path, line: line, problem)
        }
      }
      if isServer { try serverReader.read(path: path, add) } else { try reader.read(path: path, jobs: jobs, add) }
    }
  }

  /// Keeps the sends of at most `phones` phones for the goodness of fit to replay (``SendReplay``).
  public mutating func keepSends(of phones: Int) {
    // Without a holdout the check reads the fit's sample.
    if holdout > 0 { check.replayCapacity = phones } else { fit.replayCapacity = phones }
  }

  /// A phone id's place in 0..<1 (FNV-1a, mixed by SplitMix64's finaliser so that ids differing in their
  /// last characters spread evenly), the same on every machine and run.
  static func share(_ device: String) -> Double {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in device.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return Double(SplitMix64.finalize(hash) >> 11) / Double(1 << 53)
  }

  /// Sends outside the phones' app logs, counted when the samples are made.
  private var sendsOutside = 0

  /// The samples to fit and to check (without a holdout both are every phone). The observations are let go
  /// as they are summed up: a set gives its samples once.
  public mutating func samples() -> (fit: FieldSample, check: FieldSample) {
    sendsOutside = fit.sendsOutsideAppLogs + (holdout > 0 ? check.sendsOutsideAppLogs : 0)
    let fitted = fit.finish()
    return (fitted, holdout > 0 ? check.finish() : fitted)
  }

  /// What was skipped, for the console (once ``samples()`` has been made): unknown events and fields with
  /// their counts.
  public var skipped: [String] {
    let outside = sendsOutside
    return reader.unknownEvents.sorted { $0.key < $1.key }.map {
      "unknown event \($0.key): \($0.value == 1 ? "1 line" : "\($0.value) lines") skipped"
    }
      + reader.unknownFields.sorted { $0.key < $1.key }.map {
        "unknown field \($0.key): ignored \($0.value == 1 ? "once" : "\($0.value) times")"
      }
      + serverReader.skippedPushes.sorted { $0.key < $1.key }.map {
        "server log: push type \($0.key) not used: \($0.value == 1 ? "1 row" : "\($0.value) rows") skipped"
      }
      + serverReader.unknownColumns.map { "server log: unknown column \($0): ignored" }
      + (outside > 0
        ? [
          "server log: \(outside == 1 ? "1 send" : "\(outside) sends") outside the phones' app logs (no app log then): not used"
        ] : [])
  }
}
