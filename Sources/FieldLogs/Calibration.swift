import CommandSupport
import Reports
import ScenarioFiles
import WidgetModel

/// `widgetsim calibrate`: fits the base scenario's uncertain parameters to field logs, writes the fitted
/// scenario and the fits, then simulates the fitted scenario with the logs' phones and days and says how
/// well it explains them (``GoodnessOfFit``).
public struct Calibration {
  public var logs: [String]
  /// The server's send logs (CSV), if any.
  public var serverLogs: [String] = []
  public var base: String
  public var out: String
  /// The share of phones kept aside to check the fit on (0: check on the phones it was fitted to).
  public var holdout = 0.0
  public var jobs = 1
  /// Replace the reports already in ``out`` (otherwise they are refused).
  public var force = false
  /// The most phones the goodness of fit simulates (``GoodnessOfFit/simulatedPhones(logged:at:)``).
  public var checkDevices = GoodnessOfFit.defaultCheckDevices

  public init(
    logs: [String], serverLogs: [String] = [], base: String, out: String, holdout: Double = 0, jobs: Int = 1,
    force: Bool = false, checkDevices: Int? = nil
  ) {
    self.force = force
    self.checkDevices = checkDevices ?? GoodnessOfFit.defaultCheckDevices
    self.logs = logs
    self.serverLogs = serverLogs
    self.base = base
    self.out = out
    self.holdout = holdout
    self.jobs = jobs
  }

  /// What is wrong with the command's options, or nil.
  public static func problem(holdout: Double, jobs: Int?, checkDevices: Int? = nil) -> String? {
    if !(0..<1).contains(holdout) { return "--holdout takes a share in 0..<1, got \(holdout)" }
    if let checkDevices, checkDevices < 1 { return "--check-devices must be at least 1, got \(checkDevices)" }
    if let jobs, jobs < 1 { return "--jobs must be at least 1, got \(jobs)" }
    return nil
  }

  /// What a calibration found.
  public struct Outcome: Sendable {
    public let fits: [ParameterFit]
    public let checks: [GoodnessOfFit.Check]
    public let fittedPhones: Int
    public let checkedPhones: Int
    /// The phones the check simulated.
    public let simulatedPhones: Int
    /// Where the logs' delivered share of a push type is far from the simulation's.
    public var deliveryNotes: [String] = []
    public let skipped: [String]
  }

  public static let fittedFile = "fitted.yaml"
  public static let fitFile = "fit.csv"
  public static let reportFile = "fit_report.csv"
  /// Every file a calibration may leave in its folder.
  public static let files = [fittedFile, fitFile, reportFile, FitCurves.file, DeliveryTable.file, "report.html"]

  /// Reads, fits, writes and checks; bad input (a log line, the base scenario, an output on an input, an
  /// earlier command's reports without ``force``) fails with status 2 before anything is written.
  public func run() throws(CommandFailure) -> Outcome {
    let folder = try FitFolder(out, writes: FitFolder.calibrationFiles, inputs: inputs, force: force)
    defer { withExtendedLifetime(folder) {} }
    let loaded = try CommandFailure.mapping(status: 2) { try ScenarioLoader.load(path: base) }
    let configuration = loaded.configuration
    var set = FieldLogSet(base: configuration, holdout: holdout)
    try CommandFailure.mapping(status: 2) { try set.read(logs, serverLogs: serverLogs, jobs: jobs) }
    set.keepSends(of: checkDevices)
    let (fitSample, checkSample) = set.samples()
    guard fitSample.devices > 0 else { throw .badInput(noPhonesToFit(checked: checkSample.devices)) }
    let fits = FieldEstimators.fit(fitSample, base: configuration)
    let fitted = try fittedText(fits, sample: fitSample)
    var files = [(name: Calibration.fitFile, text: Calibration.csv(fits))]
    // The fitted scenario must load back before it is written (fit.csv says what was fitted either way).
    let simulatedPhones = GoodnessOfFit.simulatedPhones(logged: checkSample.devices, at: checkDevices)
    let simulated: LoadedScenario
    do {
      simulated = try CommandFailure.mapping(status: 1, prefix: "the fitted scenario does not load: ") {
        try ScenarioLoader.load(
          text: fitted, file: "fitted.yaml (not written)",
          overrides: [
            try ScenarioOverride("fleet.devices=\(simulatedPhones)"),
            try ScenarioOverride("days=\(Swift.max(1, checkSample.days))"),
            try ScenarioOverride(Calibration.timeZones(checkSample)),
          ])
      }
    } catch {
      try folder.commit(files)
      throw error
    }
    let (simulation, shared) = GoodnessOfFit.simulate(
      simulated.configuration, against: checkSample, replay: !serverLogs.isEmpty, jobs: jobs)
    let checks = GoodnessOfFit.compare(checkSample, simulation, sharedEvents: shared)
    files.append((Calibration.fittedFile, fitted))
    files.append((Calibration.reportFile, GoodnessOfFit.csv(checks)))
    if let deliveries = DeliveryTable.csv(observed: checkSample, simulated: simulation) {
      files.append((DeliveryTable.file, deliveries))
    }
    files.append((FitCurves.file, FitCurves.csv(checks)))
    try folder.commit(files)
    var outcome = Outcome(
      fits: fits, checks: checks, fittedPhones: fitSample.devices, checkedPhones: checkSample.devices,
      simulatedPhones: simulatedPhones, skipped: set.skipped)
    outcome.deliveryNotes = DeliveryTable.notes(observed: checkSample, simulated: simulation)
    return outcome
  }

  /// The files the command reads, which none of its outputs may be.
  var inputs: [OutputPaths.Named] {
    FitFolder.inputs(logs: logs, serverLogs: serverLogs, scenario: ("the base scenario (--scenario)", base))
  }

  /// Why no phone is left to fit on: the logs hold none, or `--holdout` kept them all aside.
  func noPhonesToFit(checked: Int) -> String {
    guard holdout > 0 && checked > 0 else { return "the logs hold no records: \(logs.joined(separator: ", "))" }
    return "--holdout \(holdout) kept all \(checked) phone\(checked == 1 ? "" : "s") of the logs aside to check "
      + "the fit on, leaving none to fit: give a smaller share (0.5 is the honest reading)"
  }

  /// The `--set` argument giving the simulation the logged phones' time zones (as often as the logs have
  /// each), so that its server-side clock is theirs.
  static func timeZones(_ sample: FieldSample) -> String {
    let (values, weights) = sample.clockOffsetDistribution
    guard !values.isEmpty else { return "fleet.timezone_offset=0s" }
    return "fleet.timezone_offset={dist: empirical, values: [\(values.map { "\(Int($0))s" }.joined(separator: ", "))], "
      + "weights: [\(weights.map { "\(Int($0))" }.joined(separator: ", "))]}"
  }

  /// The base scenario with every fitted value, each key commented with its estimates.
  /// The logs' time zones go in as `fleet.timezone_offset` (each phone's offset, as often as the logs have it),
  /// so that `run fitted.yaml` puts the phones where they were.
  func fittedText(_ fits: [ParameterFit], sample: FieldSample) throws(CommandFailure) -> String {
    let phones = sample.devices
    var overrides = [try CommandFailure.mapping(status: 1) { try ScenarioOverride(Calibration.timeZones(sample)) }]
    var comments = [
      (path: "fleet.timezone_offset", text: "from the logs: each phone's UTC offset, as often as the logs have it")
    ]
    for fit in fits {
      guard let override = fit.override, let path = override.split(separator: "=", maxSplits: 1).first.map(String.init)
      else {
        continue
      }
      overrides.append(try CommandFailure.mapping(status: 1) { try ScenarioOverride(override) })
      let related = fits.filter { $0.key.hasPrefix(path) && $0.estimate != nil }
      // A setting made of many rows (the hourly profile) says what it is; fit.csv has each row.
      let text = fit.estimate == nil ? fit.method : related.map(Calibration.summary).joined(separator: "; ")
      comments.append((path, "fitted: " + text))
    }
    return try CommandFailure.mapping(status: 2) {
      try ScenarioRewrite.text(
        path: base, overrides: overrides, comments: comments,
        header: [
          "Fitted by `widgetsim calibrate` from \(logs.count) log file\(logs.count == 1 ? "" : "s") "
            + "(\(phones) phone\(phones == 1 ? "" : "s")) on the base scenario \(base).",
          "Each fitted key says its estimate, 95% interval and sample size; fit.csv lists every estimator.",
        ])
    }
  }

  /// `key estimate (95% CI low-high, n N)`.
  static func summary(_ fit: ParameterFit) -> String {
    guard let estimate = fit.estimate, let low = fit.low, let high = fit.high else { return fit.key }
    // Times of day read as clock times; durations (an estimator in seconds) with their unit, and in minutes
    // past two.
    if fit.key.hasPrefix("user.sleep.") {
      let clock = FieldEstimators.clock
      return "\(fit.key) \(clock(estimate)) (95% CI \(clock(low))-\(clock(high)), n \(fit.count))"
    }
    let number = { (value: Double) in FitText.number(value) }
    guard fit.method.contains("(seconds)") else {
      return "\(fit.key) \(number(estimate)) (95% CI \(number(low))-\(number(high)), n \(fit.count))"
    }
    let minutes = estimate >= 120 ? " = \(FitText.number(estimate / 60, digits: 3)) min" : ""
    return "\(fit.key) \(number(estimate)) s\(minutes) (95% CI \(number(low))-\(number(high)) s, n \(fit.count))"
  }

  /// `fit.csv`.
  static func csv(_ fits: [ParameterFit]) -> String {
    ParameterFit.columns
      + fits.map { fit in
        let numbers = [fit.estimate, fit.low, fit.high].map { $0.map { FitText.number($0, digits: 6) } ?? "" }
        let method = fit.refusal.map { "not fitted: \($0)" } ?? fit.method
        return "\(fit.key),\(numbers.joined(separator: ",")),\(fit.count),\(CSVFormat.text(method))\n"
      }.joined()
  }
}
