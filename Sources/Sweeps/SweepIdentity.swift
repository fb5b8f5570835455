import Reports

/// Everything that changes a sweep's results, as its journal records it: the sweep file's text, every
/// override (`--set`, `--seed`, `--days`, `--replications`, `--devices`), the streams (common or independent)
/// and the model (the executable that simulates). A journal is resumed, and shard folders merged, only when
/// every part is the same; otherwise the message says which differ.
public struct SweepIdentity: Sendable, Equatable {
  /// Name and value of each part, in a fixed order.
  public let parts: [(name: String, value: String)]

  public static func == (lhs: SweepIdentity, rhs: SweepIdentity) -> Bool {
    lhs.parts.map(\.name) == rhs.parts.map(\.name) && lhs.parts.map(\.value) == rhs.parts.map(\.value)
  }

  public init(text: String, overrides: [String], commonRandomNumbers: Bool, model: String = SweepIdentity.model) {
    parts = [
      ("scenario", SweepPlan.hexadecimal(SweepPlan.fnv1a64(text))),
      ("overrides", overrides.isEmpty ? "none" : overrides.joined(separator: " ")),
      ("streams", commonRandomNumbers ? "common" : "independent"),
      ("model", model),
    ]
  }

  init(parts: [(name: String, value: String)]) {
    self.parts = parts
  }

  /// The journal's identity line: `identity` then `name=value` per part, tab-separated (override values may
  /// hold spaces, never tabs or newlines).
  var line: String {
    (["identity"] + parts.map { "\($0.name)=\($0.value.replacing("\t", with: " ").replacing("\n", with: " "))" })
      .joined(separator: "\t")
  }

  /// Reads an identity line; nil when it is not one.
  init?(line: Substring) {
    let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
    guard fields.first == "identity", fields.count > 1 else { return nil }
    var parts: [(name: String, value: String)] = []
    for field in fields.dropFirst() {
      guard let equals = field.firstIndex(of: "=") else { return nil }
      parts.append((String(field[..<equals]), String(field[field.index(after: equals)...])))
    }
    self.parts = parts
  }

  /// A short hash of the whole identity.
  public var fingerprint: String { SweepPlan.hexadecimal(SweepPlan.fnv1a64(line)) }

  /// The parts that differ from `other`, each as `name: this vs other`.
  public func differences(from other: SweepIdentity) -> [String] {
    var differences: [String] = []
    for part in parts {
      let theirs = other.parts.first { $0.name == part.name }?.value ?? "(none)"
      if theirs != part.value { differences.append("\(part.name): \(theirs) vs \(part.value)") }
    }
    return differences
  }

  /// The model that simulates: the running executable's hash (see ``BuildIdentity/executable``).
  public static let model: String = BuildIdentity.executable
}
