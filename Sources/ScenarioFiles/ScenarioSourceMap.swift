import Yams

/// Where each subject of a run's reports is written in its scenario file: a widget's, control's or Live
/// Activity's entry (by `id`), and the sections behind the other subjects (`device`, `app`, `fleet`...).
/// CI annotations point at these lines, so a failed gate shows on the line of the widget that got worse.
public struct ScenarioSourceMap: Sendable {
  /// 1-based line by subject label, as reports name subjects (widget ids; sections by name).
  public let lines: [String: Int]

  /// The map of a scenario's text; empty when the text is not YAML (the run read it, so it rarely is not).
  public init(text: String) {
    let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
    guard let root = try? Yams.compose(yaml: text), let top = root.mapping else {
      lines = [:]
      return
    }
    var lines: [String: Int] = [:]
    for (key, value) in top {
      guard let name = key.string, let line = key.mark?.line else { continue }
      lines[name] = line
      guard ["widgets", "controls", "live_activities"].contains(name), let entries = value.sequence else { continue }
      for entry in entries {
        if let id = entry.mapping?["id"]?.string, let entryLine = entry.mark?.line { lines[id] = entryLine }
      }
    }
    self.lines = lines
  }

  /// The line of a report subject: a widget instance's label (`id`, `id@placement`, `id#2`) goes to its
  /// widget's entry; `app` and the app's fetch streams to `app`; the device to `device`; the server, pushes
  /// and fleet figures to `fleet`; nil when the file has no such place.
  public func line(ofSubject subject: String) -> Int? {
    let id = String(subject.prefix { $0 != "@" && $0 != "#" })
    if let line = lines[id] { return line }
    let section: String
    switch subject {
    case "device": section = "device"
    case _ where subject.hasPrefix("app"): section = "app"
    case "widget_push", "silent_push", "activity_push": section = "system"
    default: section = "fleet"
    }
    return lines[section]
  }
}
