import WidgetModel

/// A sweep folder's `manifest.json`: what the sweep ran (scenario file and the hash of its text, overrides,
/// seed, days, replications, streams) and its grid (each axis with its keys, several when they move in
/// lockstep, and their values; the excluded combinations). It holds nothing that depends on `--jobs`,
/// `--shard`, `--out` or the clock, so a resumed sweep, and shards merged, write the same bytes.
public struct SweepManifest: Sendable, Equatable {
  /// One axis of the grid: one key, or several moving in lockstep.
  public struct Axis: Sendable, Equatable {
    public let keys: [String]
    /// values[i][k]: the i-th setting of key k.
    public let values: [[String]]
    /// labels[i]: the i-th setting's name (the sweep file's `points` list); nil for an axis without names.
    public let labels: [String]?

    public init(keys: [String], values: [[String]], labels: [String]? = nil) {
      self.keys = keys
      self.values = values
      self.labels = labels
    }
  }

  /// The criterion for the best point (the sweep file's `objective`).
  public typealias Objective = SweepObjective

  public static let file = "manifest.json"

  public var scenarioName: String
  public var scenarioFile: String
  /// FNV-1a 64 of the sweep file's text (and its base scenario's), as in a run's manifest.
  public var scenarioHash: String
  public var overrides: [String]
  /// Per point, in point order (seeds as decimal text: they may pass `Int.max`); written as one number when
  /// every point has the same.
  public var seeds: [String]
  public var days: [Int]
  public var replications: [Int]
  /// Per point, the real phones a simulated fleet stands for (`fleet.represents`: 1 for one phone), which
  /// the report's server chart multiplies by unless `--users` says otherwise.
  public var represents: [Double] = []
  public var commonRandomNumbers: Bool
  public var points: Int
  public var grid: [Axis]
  public var excluded: [[(key: String, value: String)]]
  /// nil when the sweep file sets none (the console then uses ``SweepHeadlines``' default).
  public var objective: Objective?

  public init(
    scenarioName: String, scenarioFile: String, scenarioHash: String, overrides: [String], seeds: [String],
    days: [Int], replications: [Int], commonRandomNumbers: Bool, points: Int, grid: [Axis],
    excluded: [[(key: String, value: String)]], objective: Objective? = nil, represents: [Double] = []
  ) {
    self.represents = represents
    self.scenarioName = scenarioName
    self.scenarioFile = scenarioFile
    self.scenarioHash = scenarioHash
    self.overrides = overrides
    self.seeds = seeds
    self.days = days
    self.replications = replications
    self.commonRandomNumbers = commonRandomNumbers
    self.points = points
    self.grid = grid
    self.excluded = excluded
    self.objective = objective
  }

  public static func == (left: SweepManifest, right: SweepManifest) -> Bool { left.json == right.json }

  /// The file's text: one field per line, each axis of the grid on a line of its own.
  public var json: String {
    func same(_ list: [String]) -> String {
      if let first = list.first, list.allSatisfy({ $0 == first }) { return first }
      return "[" + list.joined(separator: ", ") + "]"
    }
    let axes = grid.map { axis in
      var members: [(String, JSONValue)] = [
        ("keys", .array(axis.keys.map { .string($0) })),
        ("lockstep", .bool(axis.keys.count > 1)),
        ("values", .array(axis.values.map { .array($0.map { .string($0) }) })),
      ]
      if let labels = axis.labels { members.append(("labels", .array(labels.map { .string($0) }))) }
      return JSONValue.object(members).text
    }
    let exclusions = excluded.map { JSONValue.object($0.map { ($0.key, .string($0.value)) }).text }
    var objectiveText = "null"
    if let objective {
      var members: [(String, JSONValue)] = [(objective.minimize ? "minimize" : "maximize", .string(objective.metric))]
      if let widget = objective.widget { members.append(("widget", .string(widget))) }
      objectiveText = JSONValue.object(members).text
    }
    let fields: [(String, String)] = [
      ("kind", JSONValue.string("sweep").text),
      ("scenario_name", JSONValue.string(scenarioName).text),
      ("scenario_file", JSONValue.string(scenarioFile).text),
      ("scenario_fnv1a64", JSONValue.string(scenarioHash).text),
      ("overrides", JSONValue.array(overrides.map { .string($0) }).text),
      ("seed", same(seeds)),
      ("days", same(days.map { "\($0)" })),
      ("replications", same(replications.map { "\($0)" })),
      (
        "represents",
        represents.isEmpty ? "1" : same(represents.map { CSVFormat.trimmed(CSVFormat.number($0, decimals: 6)) })
      ),
      ("streams", JSONValue.string(commonRandomNumbers ? "common" : "independent").text),
      ("points", "\(points)"),
      ("grid", axes.isEmpty ? "[]" : "[\n    " + axes.joined(separator: ",\n    ") + "\n  ]"),
      ("exclude", exclusions.isEmpty ? "[]" : "[\n    " + exclusions.joined(separator: ",\n    ") + "\n  ]"),
      ("objective", objectiveText),
    ]
    return "{\n" + fields.map { "  \(JSONValue.quoted($0.0)): \($0.1)" }.joined(separator: ",\n") + "\n}\n"
  }

  /// Writes `directory/manifest.json` atomically.
  public func write(to directory: String) throws(AtomicFile.WriteError) {
    try AtomicFile.write(json, to: "\(directory)/\(SweepManifest.file)")
  }

  /// The manifest in `directory`; nil when there is none, or it is not a sweep's (folders written before
  /// sweeps had one). A manifest that is not a regular file, or larger than ``InputLimits/manifestBytes``,
  /// is an error.
  public init?(directory: String) throws(TextFile.ReadError) {
    guard
      let text = try TextFile.readIfPresent("\(directory)/\(SweepManifest.file)", limit: InputLimits.manifestBytes),
      let document = try? JSONValue.parse(text), document["kind"]?.scalarText == "sweep"
    else { return nil }
    func numbers(_ key: String) -> [String] {
      guard let value = document[key] else { return [] }
      if case .array(let list) = value { return list.compactMap(\.scalarText) }
      return value.scalarText.map { [$0] } ?? []
    }
    scenarioName = document["scenario_name"]?.scalarText ?? ""
    scenarioFile = document["scenario_file"]?.scalarText ?? ""
    scenarioHash = document["scenario_fnv1a64"]?.scalarText ?? ""
    overrides = document["overrides"]?.elements.compactMap(\.scalarText) ?? []
    seeds = numbers("seed")
    days = numbers("days").compactMap { Int($0) }
    replications = numbers("replications").compactMap { Int($0) }
    commonRandomNumbers = document["streams"]?.scalarText != "independent"
    points = document["points"]?.scalarText.flatMap { Int($0) } ?? 0
    grid = (document["grid"]?.elements ?? []).map { axis in
      Axis(
        keys: axis["keys"]?.elements.compactMap(\.scalarText) ?? [],
        values: (axis["values"]?.elements ?? []).map { $0.elements.compactMap(\.scalarText) },
        labels: axis["labels"]?.elements.compactMap(\.scalarText))
    }
    represents = numbers("represents").compactMap { Double($0) }
    excluded = (document["exclude"]?.elements ?? []).map { entry in
      guard case .object(let members) = entry else { return [] }
      return members.map { (key: $0.0, value: $0.1.scalarText ?? "") }
    }
    let goal = document["objective"]
    if let metric = goal?["minimize"]?.scalarText ?? goal?["maximize"]?.scalarText {
      objective = Objective(
        metric: metric, widget: goal?["widget"]?.scalarText, minimize: goal?["minimize"]?.scalarText != nil)
    }
  }

  /// `seed` as the report shows it: one number, or the range over points.
  public var seedText: String { SweepManifest.summary(seeds) }
  public var daysText: String { SweepManifest.summary(days.map { "\($0)" }) }
  public var replicationsText: String { SweepManifest.summary(replications.map { "\($0)" }) }

  static func summary(_ values: [String]) -> String {
    guard let first = values.first else { return "?" }
    return values.allSatisfy { $0 == first } ? first : "varies by point (\(values.joined(separator: ", ")))"
  }
}
