import Reports

extension DeviceTimeline {
  /// How old the data each widget shows is through one day, from trace.csv's `content` rows: the time since
  /// the first data change the widget does not show. It grows with the clock while the widget is behind,
  /// drops when a reload shows newer data, and is 0 while it shows the latest; the placeholder has no age
  /// (the line breaks). Rows of earlier days give the state at midnight.
  struct ContentAge {
    /// One point of a line, in hours: at the day's edges and on both sides of every change.
    struct Point {
      let widget: String
      /// Which unbroken stretch of the widget's line it belongs to.
      let segment: Int
      let hour: Double
      let ageHours: Double
      /// Its place in drawing order (a drop is two points at one time).
      let order: Int
    }

    /// What a widget shows: nil for the placeholder, else since when its data is behind (nil: current).
    private enum Shown {
      case placeholder
      case since(Double?)

      func age(at seconds: Double) -> Double? {
        guard case .since(let since) = self else { return nil }
        return since.map { Swift.max(0, seconds - $0) } ?? 0
      }
    }

    let widgets: [String]
    let dayStart: Double
    var dayEnd: Double { dayStart + 86_400 }
    private var shown: [Shown]
    private var segments: [Int]
    /// Whether the day's opening points were added (at the first row on or after midnight).
    private var opened = false
    private var points: [Point] = []

    init(widgets: [String], dayStart: Double) {
      self.widgets = widgets
      self.dayStart = dayStart
      shown = Array(repeating: .placeholder, count: widgets.count)
      segments = Array(repeating: 0, count: widgets.count)
    }

    /// A `content` row: from `seconds` on, `widget` shows `outcome` (`placeholder`, `current`, `behind`),
    /// `age` seconds old.
    mutating func shows(_ widget: String, _ outcome: String, age: Double?, at seconds: Double) {
      guard let index = widgets.firstIndex(of: widget), seconds < dayEnd else { return }
      if seconds >= dayStart { open() }
      let next: Shown =
        switch outcome {
        case "current": .since(nil)
        case "behind": .since(seconds - (age ?? 0))
        default: .placeholder
        }
      guard seconds >= dayStart else {
        shown[index] = next
        return
      }
      if let before = shown[index].age(at: seconds) { add(index, seconds, before) }
      if case .since = shown[index], case .placeholder = next { segments[index] += 1 }
      shown[index] = next
      if let after = next.age(at: seconds) { add(index, seconds, after) }
    }

    /// The lines' points, the day closed at midnight.
    mutating func finish() -> [Point] {
      open()
      for index in widgets.indices {
        if let age = shown[index].age(at: dayEnd) { add(index, dayEnd, age) }
      }
      return points
    }

    /// Midnight's points, from the state the earlier rows left.
    private mutating func open() {
      guard !opened else { return }
      opened = true
      for index in widgets.indices {
        if let age = shown[index].age(at: dayStart) { add(index, dayStart, age) }
      }
    }

    private mutating func add(_ index: Int, _ seconds: Double, _ age: Double) {
      points.append(
        Point(
          widget: widgets[index], segment: segments[index], hour: (seconds - dayStart) / 3_600, ageHours: age / 3_600,
          order: points.count))
    }
  }
}
