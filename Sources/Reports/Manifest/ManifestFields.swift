/// The few fields of a run's manifest.json others read back (the HTML report, `compare`'s annotations). The manifest is widgetsim's own, one field per
/// line (see Reports' Manifest), so each line is read as `"key": value`.
public struct ManifestFields: Sendable {
  public let values: [String: String]

  /// The fields of `directory/manifest.json`; none when the folder has no manifest. A manifest that is not
  /// a regular file, or larger than ``InputLimits/manifestBytes``, is an error.
  public init(directory: String) throws(TextFile.ReadError) {
    var values: [String: String] = [:]
    let text = try TextFile.readIfPresent("\(directory)/manifest.json", limit: InputLimits.manifestBytes) ?? ""
    for line in text.split(separator: "\n") {
      let trimmed = line.drop { $0 == " " }
      guard trimmed.hasPrefix("\""), let colon = trimmed.firstRange(of: "\": ") else { continue }
      let key = String(trimmed[trimmed.index(after: trimmed.startIndex)..<colon.lowerBound])
      var value = String(trimmed[colon.upperBound...])
      if value.hasSuffix(",") { value.removeLast() }
      if value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2 {
        value = String(value.dropFirst().dropLast())
      }
      values[key] = value
    }
    self.values = values
  }

  public subscript(_ key: String) -> String? { values[key] }

  public func integer(_ key: String) -> Int? { values[key].flatMap { Int($0) } }
}
