import SimulationEngine

/// A rate of events per hour that changes at any minute of the clock: an hourly profile, or windows such as
/// lunch 11:30-13:30 (rates finer than an hour). Held as the day's segments of constant rate.
public struct ClockRate: Sendable, Equatable {
  /// One piece of the day: `[fromMinute, toMinute)` at `perHour`.
  public struct Segment: Sendable, Equatable {
    public let fromMinute: Int
    public let toMinute: Int
    public let perHour: Double
  }

  /// Covering the day from minute 0 to 1440, in order, neighbours of equal rate merged.
  public let segments: [Segment]

  /// Rates per minute of the day (1440 values), merged into segments.
  init(perMinute rates: [Double]) {
    precondition(rates.count == 1_440, "a clock rate has 1440 minutes")
    var segments: [Segment] = []
    var start = 0
    for minute in 1...1_440 where minute == 1_440 || rates[minute] != rates[start] {
      segments.append(Segment(fromMinute: start, toMinute: minute, perHour: rates[start]))
      start = minute
    }
    self.segments = segments
  }

  /// The same rate as an hourly rate.
  public init(_ hourly: HourlyRate) {
    self.init(perMinute: (0..<1_440).map { hourly[$0 / 60] })
  }

  /// `perHour` inside each window (`[from, to)`, possibly across midnight; later windows win where they
  /// overlap), zero elsewhere.
  public init(windows: [(from: TimeOfDay, to: TimeOfDay, perHour: Double)]) {
    var rates = Array(repeating: 0.0, count: 1_440)
    for window in windows {
      let from = Int(window.from.sinceMidnight.microseconds / 60_000_000)
      let to = Int(window.to.sinceMidnight.microseconds / 60_000_000)
      var minute = from
      repeat {
        rates[minute] = window.perHour
        minute = (minute + 1) % 1_440
      } while minute != to
    }
    self.init(perMinute: rates)
  }

  /// Events per day.
  public var perDay: Double { segments.reduce(0) { $0 + $1.perHour * Double($1.toMinute - $1.fromMinute) / 60 } }

  public var isZero: Bool { segments.allSatisfy { $0.perHour == 0 } }

  /// The next event of a Poisson process at this rate after `now`, by inverting its cumulative rate: one
  /// exponential draw, then the day's segments walked until it is used up; nil if none comes before `end`.
  func next(after now: SimTime, before end: SimTime, _ stream: RandomStream) -> SimTime? {
    guard !isZero else { return nil }
    var remaining = stream.exponential(mean: 1)
    var time = now
    let minute = SimDuration.minutes(1).microseconds
    while time < end {
      let clock = Int(time.sinceMidnight.microseconds / minute)
      guard let segment = segments.first(where: { clock < $0.toMinute }) else { return nil }
      let segmentEnd = time - time.sinceMidnight + .minutes(Int64(segment.toMinute))
      let hours = (segmentEnd - time).seconds / 3_600
      let hazard = segment.perHour * hours
      if remaining < hazard { return time + SimDuration(seconds: remaining / segment.perHour * 3_600) }
      remaining -= hazard
      time = segmentEnd
    }
    return nil
  }
}

/// Data changes that come on their own clock instead of the hourly process: at a rate given over clock
/// windows, or in bursts (an order: placed, accepted, picked up, delivered: several updates within an hour).
public struct ScheduledChanges: Sendable, Equatable {
  /// When a burst (or a single change) starts.
  public var starts: ClockRate
  /// Updates per burst, the start included (1: single changes).
  public var updates: Int
  /// Time between a burst's updates.
  public var spacing: Distribution?

  public init(starts: ClockRate, updates: Int = 1, spacing: Distribution? = nil) {
    self.starts = starts
    self.updates = updates
    self.spacing = spacing
  }

  /// Whether changes come in bursts of several updates (then staleness during bursts is reported apart).
  public var isBursty: Bool { updates > 1 }
}
