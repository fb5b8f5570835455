import Results
import WidgetModel

/// Writes the reports of one run into a folder as replications finish, so memory holds one replication's
/// results (and, by default, their running sum) however many replications run. By default each report gives
/// the mean over the replications, written once at the end from their sum; with `detail` every replication's
/// rows are written as it finishes. Every file goes to a temporary name and is renamed into place by
/// ``finish(metadata:stoppedEarly:)``, all of them as one ``ReportSet``; until then the folder keeps the
/// reports it had.
public final class RunReportWriter {
  /// The files a run writes, in the order they are committed (manifest last: it marks a complete run).
  public static var files: [String] { RunReports.files }

  public let directory: String
  /// The run's configuration; `replications` is what the manifest records (see ``plan(replications:)``).
  public private(set) var configuration: ScenarioConfiguration
  let subjects: RunSummary.Subjects
  /// Whether each replication's rows are written (`--detail`), not the mean over replications.
  public let detail: Bool
  /// The sum the default reports are written from (unused with ``detail``).
  private var total = RunTotal()
  /// Each report of ``RunReports/perReplication`` with its file.
  private let reports: [(report: any RunReport.Type, writer: AtomicFileWriter)]
  private let replications: AtomicFileWriter
  /// Each per-device report (``DeviceReports``) with its file, when per-device figures were asked for.
  private let devices: [(report: any DeviceReport.Type, writer: AtomicFileWriter)]
  private let perDevice: Bool
  private var summary: RunSummary.Accumulator
  public private(set) var eventsHandled: UInt64 = 0
  private var fingerprints: [ReplicationFingerprint] = []
  private var nextReplication = 0
  /// Renders replications.csv's rows of a replication.
  public let replicationRows: ReplicationRows
  /// The reports ``finish(metadata:stoppedEarly:)`` commits as one set; a file written beside the reports
  /// (trace.csv) joins it.
  public let set: ReportSet

  /// Starts the reports of a run in `directory`; with `resuming`, the reports already there (an interrupted
  /// run's, holding `resuming.replicationsCompleted` replications) are carried over and the run goes on
  /// from the next replication.
  public init(
    configuration: ScenarioConfiguration, directory: String, perDevice: Bool = false, detail: Bool = false,
    resuming: RunProgress? = nil
  ) throws(AtomicFile.WriteError) {
    self.directory = directory
    self.configuration = configuration
    self.detail = detail
    subjects = RunSummary.Subjects(configuration)
    set = ReportSet(directory: directory)
    try AtomicFile.createDirectory(directory)
    var reports: [(report: any RunReport.Type, writer: AtomicFileWriter)] = []
    for report in RunReports.perReplication {
      reports.append((report, try AtomicFileWriter(path: "\(directory)/\(report.file)")))
    }
    self.reports = reports
    replications = try AtomicFileWriter(path: "\(directory)/\(ReplicationsReport.file)")
    var devices: [(report: any DeviceReport.Type, writer: AtomicFileWriter)] = []
    for report in perDevice ? DeviceReports.all : [] {
      devices.append((report, try AtomicFileWriter(path: "\(directory)/\(report.file)")))
    }
    self.devices = devices
    self.perDevice = perDevice
    summary = RunSummary.Accumulator(subjects: subjects)
    replicationRows = ReplicationRows(seed: configuration.seed, cells: ReplicationsReport.RowCells(summary.rowLabels))
    var streams = reports.map { ($0.writer, $0.report.header(detail: detail)) }
    if !detail { streams = [] }  // the mean over replications is written at the end
    streams += devices.map { ($0.writer, $0.report.header) }
    guard let resuming else {
      for (writer, header) in streams { try writer.append(header) }
      try replications.append(ReplicationsReport.header)
      return
    }
    for (writer, header) in streams { try writer.append(contentsOf: writer.path, header: header) }
    try restoreReplications(resuming)
    try restoreTotal(resuming)
  }

  /// Reads back an interrupted run's sum of replications (`resume.bin`); with `--detail`, which keeps no
  /// sum, its busiest seconds and herds.
  private func restoreTotal(_ progress: RunProgress) throws(AtomicFile.WriteError) {
    let path = "\(directory)/\(RunTotal.file)"
    let bytes: [UInt8]
    do {
      bytes = try TextFile.readBytes(path, limit: InputLimits.resultBytes)
    } catch {
      throw AtomicFile.WriteError(path: path, reason: error.reason)
    }
    do {
      total = try RunTotal(decoding: bytes, identity: progress.identity, configuration: configuration)
    } catch {
      throw AtomicFile.WriteError(path: path, reason: "\(error)")
    }
    guard detail || total.replications == progress.replicationsCompleted else {
      throw AtomicFile.WriteError(
        path: path,
        reason: "holds \(total.replications) replications; resume.txt says \(progress.replicationsCompleted)")
    }
  }

  /// Carries over an interrupted run's replications.csv: its values go back into the summary (they are
  /// written at full precision, so the summary comes out as if the run had never stopped).
  private func restoreReplications(_ progress: RunProgress) throws(AtomicFile.WriteError) {
    let path = replications.path
    let text: String
    do {
      text = try TextFile.read(path, limit: InputLimits.replicationsBytes)
    } catch {
      throw AtomicFile.WriteError(path: path, reason: error.reason)
    }
    let rows = CSVLines.parse(text)
    let keys = summary.rowKeys
    let expected = progress.replicationsCompleted * keys.count
    guard rows.first == CSVLines.parse(ReplicationsReport.header).first, rows.count - 1 == expected else {
      throw AtomicFile.WriteError(
        path: path,
        reason: "holds \(rows.count - 1) rows; the interrupted run's \(progress.replicationsCompleted) "
          + "replications need \(expected)")
    }
    for replication in 0..<progress.replicationsCompleted {
      var values: [Double] = []
      for (offset, key) in keys.enumerated() {
        let row = rows[1 + replication * keys.count + offset]
        guard row.count == 6, row[1] == "\(replication)", row[2] == key.metric, row[3] == key.widget else {
          throw AtomicFile.WriteError(
            path: path, reason: "row \(2 + replication * keys.count + offset) is not \(key.metric) of \(key.widget)")
        }
        values.append(Double(row[4]) ?? .nan)
      }
      summary.add(values)
    }
    try replications.append(text)
    nextReplication = progress.replicationsCompleted
    eventsHandled = progress.eventsHandled
    fingerprints = progress.fingerprints
  }

  /// Sets the replications the run is to have (`run --precision` decides as it goes).
  public func plan(replications: Int) { configuration.replications = replications }

  /// The summary of the replications added so far.
  public var summarySoFar: RunSummary { summary.summary }

  /// Summary rows' metric and subject, in order.
  public var summaryKeys: [(metric: String, widget: String)] { summary.rowKeys }

  /// Replications added so far (including those of a resumed run).
  public var replicationsCompleted: Int { nextReplication }

  /// Per ``ServerDirection``, the largest busiest second of the replications so far, as the console says it
  /// (empty text: none).
  public var largestPeaks: [String] { total.largest.map(\.text) }

  /// The herds nothing in the scenario explains, of the earliest replication with any, as warnings say them.
  public var herds: [String] { total.herds }

  /// Derives a replication's summary values (``add(_:devices:values:)`` takes them), on any thread.
  public var summaryAccumulator: RunSummary.Accumulator { summary }

  /// Keeps the first replication's intervals of the figures its fleet's sample estimates
  /// (``RunSummary/Accumulator/intervals(of:)``), for a replication added by its values alone.
  public func note(_ intervals: [SampledInterval?]) { summary.note(intervals) }

  /// Adds one replication's results; replications must arrive in order (0, 1, 2...). `values` are the
  /// replication's summary values if already derived (by ``summaryAccumulator``).
  public func add(_ result: ReplicationResult, devices summaries: [DeviceSummary] = [], values: [Double]? = nil)
    throws(AtomicFile.WriteError)
  {
    precondition(result.replication == nextReplication, "replication \(result.replication) out of order")
    summary.noteIntervals(of: result)
    if detail {
      let scope = ReportScope.replication(result.replication, subjects: subjects)
      for (report, writer) in reports { try writer.append(report.rows(result, scope)) }
      total.notePeaks(result)
    } else {
      total.add(result) { ServerPeakReport.rows($0, subjects: subjects) }
    }
    try add(
      summed: result.replication, eventsHandled: result.eventsHandled, fingerprint: result.fingerprint,
      devices: summaries, values: values ?? summary.numbers(of: result))
  }

  /// Adds one replication's results, as ``add(_:devices:values:)`` does, emptying the result as it goes into
  /// the run's sum (``RunTotal/absorb(_:peakRows:)``): for a result no one else holds. Returns the result,
  /// to be reset before it serves another replication; nil when it became the run's sum.
  public func absorb(_ result: consuming ReplicationResult, devices summaries: [DeviceSummary] = [])
    throws(AtomicFile.WriteError) -> ReplicationResult?
  {
    guard !detail else {
      try add(result, devices: summaries)
      return result
    }
    precondition(result.replication == nextReplication, "replication \(result.replication) out of order")
    summary.noteIntervals(of: result)
    let values = summary.numbers(of: result)
    let (replication, eventsHandled, fingerprint) = (result.replication, result.eventsHandled, result.fingerprint)
    let spare = total.absorb(result) { ServerPeakReport.rows($0, subjects: subjects) }
    try add(
      summed: replication, eventsHandled: eventsHandled, fingerprint: fingerprint, devices: summaries, values: values)
    return spare
  }

  /// Where replications run side by side are summed, on their own threads (nil with ``detail``: each
  /// replication's rows need its whole result, through ``add(_:devices:values:)``).
  public func makeSums() -> ReplicationSums? {
    detail ? nil : ReplicationSums(subjects: subjects)
  }

  /// Merges the partial totals of `sums` into the run's sum: their replications' rows follow, through
  /// ``add(summed:eventsHandled:fingerprint:devices:values:)``. Returns the results whose memory is free again.
  public func add(_ sums: ReplicationSums) -> [ReplicationResult] {
    precondition(!detail, "a sum of replications with --detail")
    return sums.take().compactMap { total.merge($0) }
  }

  /// Adds the rows of a replication already in the run's sum (``add(_:)``); replications must arrive in
  /// order. `rows` are its replications.csv rows if already rendered (by ``replicationRows``).
  public func add(
    summed replication: Int, eventsHandled: UInt64, fingerprint: ReplicationFingerprint,
    devices summaries: [DeviceSummary], values: [Double], rows: String? = nil
  ) throws(AtomicFile.WriteError) {
    precondition(replication == nextReplication, "replication \(replication) out of order")
    nextReplication += 1
    for (report, writer) in devices { try writer.append(report.rows(summaries, replication: replication)) }
    try replications.append(rows ?? replicationRows.text(values, replication: replication))
    summary.add(values)
    self.eventsHandled += eventsHandled
    fingerprints.append(fingerprint)
  }

  /// Commits every report and returns the run's summary. With `stoppedEarly` (Ctrl-C, SIGTERM) the reports
  /// hold the replications finished so far, the manifest says `"complete": false`, and resume.txt lets
  /// `widgetsim run --resume` carry on.
  @discardableResult
  public func finish(metadata: RunMetadata, stoppedEarly: Bool = false) throws(AtomicFile.WriteError) -> RunSummary {
    // The sum and the rows hold the same replications (resume.bin and resume.txt must agree).
    precondition(detail || total.replications == nextReplication, "a sum of replications not matching the rows")
    let result = summary.summary
    if !detail, let sum = total.result {
      let scope = ReportScope.mean(of: total.replications, subjects: subjects)
      for (report, writer) in reports {
        try writer.append(report.header(detail: false))
        try writer.append(report == ServerPeakReport.self ? total.peakRows : report.rows(sum, scope))
      }
    }
    for (_, writer) in reports { try set.add(writer) }
    try set.add(replications)
    for (_, writer) in devices { try set.add(writer) }
    if !perDevice { for file in DeviceReports.files { set.remove(file) } }  // an earlier run's, now stale
    set.remove("report.html")  // made from the old reports: `--report` writes it anew
    if !set.contains(TraceReport.file) { set.remove(TraceReport.file) }  // it would describe another run
    try set.write(result.csv(), to: "summary.csv")
    if stoppedEarly {
      let identity = RunProgress.identity(metadata, perDevice: perDevice, detail: detail)
      let progress = RunProgress(identity: identity, eventsHandled: eventsHandled, fingerprints: fingerprints)
      // With --detail the total holds no sum, only the busiest seconds and herds so far.
      try set.write(bytes: total.encoded(identity: identity), to: RunTotal.file)
      try set.write(progress.text, to: RunProgress.file)
    } else {
      set.remove(RunProgress.file)
      set.remove(RunTotal.file)
    }
    // Phones with each widget, the mean over replications (a fleet installs some widgets on some phones).
    let installed = configuration.instances.map(\.label).compactMap { label -> (String, Double, Double)? in
      guard let devices = result.row("installed_devices", widget: label),
        let phones = result.row("installed_phones", widget: label)
      else { return nil }
      return (label, devices.values.mean, phones.values.mean)
    }
    let manifest = Manifest.json(
      configuration: configuration, eventsHandled: eventsHandled, fingerprints: fingerprints, metadata: metadata,
      complete: !stoppedEarly, installed: installed.map { (widget: $0.0, devices: $0.1, phones: $0.2) })
    try set.write(manifest, to: "manifest.json")
    try set.commit()
    return result
  }
}
