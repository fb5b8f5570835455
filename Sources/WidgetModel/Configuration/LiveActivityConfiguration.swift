import SimulationEngine

/// How a Live Activity is started.
public enum ActivityStart: String, Sendable, CaseIterable {
  /// By the user inside the app (ordering, checking in): the start brings the app to the foreground (an app
  /// open), where `Activity.request` is allowed [D]; limited by the concurrency caps.
  case app
  /// By the app on its own at the start time (a timer, a background launch): `Activity.request` succeeds
  /// only while the app is in the foreground, otherwise it fails with `visibility` [D] and is counted.
  case appRequest = "app_request"
  /// By a push-to-start notification: also spends the push-to-start budget [D, staff].
  case pushToStart = "push_to_start"
}

/// How a Live Activity normally ends (the system ends it after 8 h regardless [D]).
public enum ActivityEnd: String, Sendable, CaseIterable {
  /// The app ends it locally: always succeeds.
  case app
  /// A final priority-10 push ends it: throttled like any update, and then the activity runs on.
  case push
}

/// What the app does when a start would exceed a concurrency cap (the system never ends an activity to make
/// room; ending the oldest is the app's choice, as seed 004's flight tracker does).
public enum ActivityCapPolicy: String, Sendable, CaseIterable {
  /// The start fails (`rejected_cap` / `rejected_device_cap`).
  case reject
  /// The app ends its oldest running activity (ending `replaced`) and starts the new one.
  case endOldest = "end_oldest"
}

/// What a broadcast channel does with an update for a device that is not reachable when it is sent [D,
/// WWDC24].
public enum BroadcastStorage: String, Sendable, CaseIterable {
  /// "No Storage": only devices reachable at send time get it.
  case none
  /// "Most Recent Message": a device that was off gets the latest update when it returns.
  case mostRecent = "most_recent"
}

/// A broadcast push channel (iOS 18): the server sends each update once, to APNs, and every subscribed
/// Live Activity on every device receives it [D]. Its updates happen once for the whole fleet: drawn per
/// replication on the UTC clock, not per device.
public struct BroadcastChannelConfiguration: Sendable {
  public var id: String
  public var storage: BroadcastStorage
  /// Time between the channel's updates, in seconds.
  public var updateInterval: Distribution
  /// A daily UTC window outside which the channel sends nothing (a match, market hours); nil: all day.
  public var activeWindow: SleepWindow?

  public init(
    id: String, storage: BroadcastStorage = .none,
    updateInterval: Distribution = LiveActivityConfiguration.defaultInterval, activeWindow: SleepWindow? = nil
  ) {
    self.id = id
    self.storage = storage
    self.updateInterval = updateInterval
    self.activeWindow = activeWindow
  }
}

/// What stays on the Lock Screen after a Live Activity ends [D: up to 4 h].
public enum ActivityDismissal: Sendable, Hashable {
  /// Removed at once.
  case immediate
  /// The system default: up to 4 h.
  case systemDefault
  /// Removed this long after the end (capped at 4 h).
  case after(SimDuration)
}

/// One kind of Live Activity the app runs: how often it starts, how it is updated and how it ends.
public struct LiveActivityConfiguration: Sendable {
  public var id: String
  /// Random starts per day, spread over the waking hours (a Poisson process).
  public var startsPerDay: Double
  /// Starts at fixed clock times every day (a delivery ordered every evening), besides the random ones.
  public var startsAt: [TimeOfDay]
  /// Starts with each burst of this data kind's changes (an order placed: ``ScheduledChanges``), and every
  /// update of the burst is pushed to it; nil: not tied to data.
  public var burstKind: String?
  /// Whether it sends updates of its own (`updates.interval`); an activity tied to bursts whose `updates`
  /// are not given gets only the burst's.
  public var ownUpdates = true
  public var start: ActivityStart
  /// Time between update pushes, in seconds.
  public var updateInterval: Distribution
  /// APNs priority of updates: 10 (immediate, budgeted) or 5 (free, opportunistic) [D].
  public var priority: Int
  /// Whether the app has `NSSupportsLiveActivitiesFrequentUpdates` [D].
  public var frequentUpdates: Bool
  /// Whether the user left frequent updates on in Settings (they can turn them off) [D].
  public var frequentUpdatesAllowed: Bool
  /// How long the activity runs before the app (or its final push) ends it, in seconds.
  public var duration: Distribution
  public var end: ActivityEnd
  public var dismissal: ActivityDismissal
  /// Peak memory of rendering one update, in bytes (ceiling: `system.live_activities.memory_ceiling`).
  public var memoryBytes: Distribution
  /// The `staleDate` the app sets with each update, this long after it [D]; nil: none.
  public var staleAfter: SimDuration?
  /// `relevanceScore`: of several running activities, the highest gets the Dynamic Island [D].
  public var relevanceScore: Double
  /// What the app does when a start would exceed a concurrency cap.
  public var onCap: ActivityCapPolicy
  /// The broadcast channel (index into the scenario's channels) whose updates it receives instead of its
  /// own per-device pushes; nil: per-device updates.
  public var broadcastChannel: Int?
  /// Push-token rotations per day of each running activity: each sends one registration request to the app's
  /// server [D] (a broadcast activity has no token of its own).
  public var tokenRotationsPerDay: Double

  public init(
    id: String, startsPerDay: Double = 1, startsAt: [TimeOfDay] = [], start: ActivityStart = .app,
    updateInterval: Distribution = LiveActivityConfiguration.defaultInterval, priority: Int = 10,
    frequentUpdates: Bool = false, frequentUpdatesAllowed: Bool = true,
    duration: Distribution = LiveActivityConfiguration.defaultDuration, end: ActivityEnd = .app,
    dismissal: ActivityDismissal = .systemDefault, memoryBytes: Distribution = LiveActivityConfiguration.defaultMemory,
    staleAfter: SimDuration? = nil, relevanceScore: Double = 0, onCap: ActivityCapPolicy = .reject,
    broadcastChannel: Int? = nil, tokenRotationsPerDay: Double = 0
  ) {
    self.staleAfter = staleAfter
    self.relevanceScore = relevanceScore
    self.onCap = onCap
    self.broadcastChannel = broadcastChannel
    self.tokenRotationsPerDay = tokenRotationsPerDay
    self.id = id
    self.startsPerDay = startsPerDay
    self.startsAt = startsAt
    self.start = start
    self.updateInterval = updateInterval
    self.priority = priority
    self.frequentUpdates = frequentUpdates
    self.frequentUpdatesAllowed = frequentUpdatesAllowed
    self.duration = duration
    self.end = end
    self.dismissal = dismissal
    self.memoryBytes = memoryBytes
  }

  // Literal, valid parameters.
  public static let defaultInterval = try! Distribution.exponential(mean: 300)
  public static let defaultDuration = try! Distribution.lognormal(median: 2_700, sigma: 0.5)
  public static let defaultMemory = try! Distribution.normal(mean: 20_000_000, sd: 4_000_000, lower: 1_000_000)
}

/// What iOS does with Live Activities, per app.
public struct LiveActivitySystemConfiguration: Sendable {
  /// Priority-10 updates per hour before throttling ([F] "~10-15 per hour"; shared by the app's activities).
  public var budgetPerHour: Double
  /// The same with the frequent-updates entitlement on ([D] "raises the budget"; size [A]).
  public var frequentBudgetPerHour: Double
  /// Push-to-start tokens ([D, staff] "ran out after ~10 starts in a burst") and their refill per hour ([A]).
  public var pushToStartBudget: Double
  public var pushToStartRefillPerHour: Double
  /// Concurrent activities per app ([F] 5; "typically 2-3" elsewhere [F]: we keep 5).
  public var maxConcurrent: Int
  /// Concurrent activities on the device, all apps together: over it a start fails with
  /// `globalMaximumExceeded` [D]; Apple gives no number ([A] 10). Other apps' activities are not simulated.
  public var maxConcurrentDevice: Int
  /// Active broadcast channels per app: "limited" [D], 10,000 per app and environment [F, third party].
  public var maxBroadcastChannels: Int
  /// Delivery delay of priority-5 updates, in seconds ([O] pushes sent every 3 s arrived every 30-60 s;
  /// [A] uniform 30-60 s).
  public var lowPriorityDelay: Distribution
  /// Longest an activity stays active, and on the Lock Screen after it ends ([D] 8 h and 4 h).
  public var maximumActive: SimDuration
  public var maximumLockScreen: SimDuration
  /// Peak memory above which rendering an update is killed ([F] about 50 MB; MiB as for widgets).
  public var memoryCeilingBytes: Double

  public init(
    budgetPerHour: Double = 12, frequentBudgetPerHour: Double = 60, pushToStartBudget: Double = 10,
    pushToStartRefillPerHour: Double = 1, maxConcurrent: Int = 5, maxConcurrentDevice: Int = 10,
    maxBroadcastChannels: Int = 10_000,
    lowPriorityDelay: Distribution = LiveActivitySystemConfiguration.defaultLowPriorityDelay,
    maximumActive: SimDuration = .hours(8), maximumLockScreen: SimDuration = .hours(4),
    memoryCeilingBytes: Double = 50 * 1_048_576
  ) {
    self.budgetPerHour = budgetPerHour
    self.frequentBudgetPerHour = frequentBudgetPerHour
    self.pushToStartBudget = pushToStartBudget
    self.pushToStartRefillPerHour = pushToStartRefillPerHour
    self.maxConcurrent = maxConcurrent
    self.maxConcurrentDevice = maxConcurrentDevice
    self.maxBroadcastChannels = maxBroadcastChannels
    self.lowPriorityDelay = lowPriorityDelay
    self.maximumActive = maximumActive
    self.maximumLockScreen = maximumLockScreen
    self.memoryCeilingBytes = memoryCeilingBytes
  }

  public static let defaultLowPriorityDelay = try! Distribution.uniform(low: 30, high: 60)  // literal, valid
}
