/// A background launch of the app (a Background App Refresh run or a silent push) as its log shows it: how
/// long since the app last ran (its store was current then), and whether it called for a widget reload just
/// after (`reload_call` within ``BackgroundWake/reloadWindowMicroseconds``). The app reloads when its fetch
/// finds data newer than its store, so the share that reload tells how fast the data changes.
public struct BackgroundWake: Sendable {
  public let secondsSinceAppRan: Double
  public let silentPush: Bool
  /// The kinds its reload calls named (nil: `reloadAllTimelines()`); empty: it called for none.
  public internal(set) var reloadedKinds: [String?] = []
  public var reloaded: Bool { !reloadedKinds.isEmpty }

  /// Whether it called for a reload of `kind` (by name, or of every kind).
  public func reloaded(_ kind: String) -> Bool { reloadedKinds.contains { $0 == nil || $0 == kind } }

  /// A reload call this soon after the wake is the wake's: the fetch and the call take seconds.
  static let reloadWindowMicroseconds: Int64 = 10_000_000
}

extension FieldObservations {
  /// A background run or a silent push at `t`: the wake before it is closed, this one waits for its call.
  static func wakeBegan(at t: Int64, silentPush: Bool, _ device: inout FieldDevice) {
    let since = device.lastAppRun
    appRan(at: t, &device)
    guard let since, t > since else { return }
    device.pendingWake = (t, BackgroundWake(secondsSinceAppRan: Double(t - since) / 1e6, silentPush: silentPush))
  }

  /// A `reload_call` of `kind` at `t`: the pending wake's, if it came within the window (a wake may call for
  /// several kinds).
  static func wakeReloadCall(of kind: String?, at t: Int64, _ device: inout FieldDevice) {
    guard device.pendingWake.map({ t - $0.time <= BackgroundWake.reloadWindowMicroseconds }) == true else { return }
    device.pendingWake?.wake.reloadedKinds.append(kind)
  }

  /// The app ran at `t` (an open, leaving the foreground, a wake, the log's end): a wake still waiting for
  /// its call past the window made none.
  static func appRan(at t: Int64, _ device: inout FieldDevice) {
    if let pending = device.pendingWake, t != pending.time {
      device.wakes.append(pending.wake)
      device.pendingWake = nil
    }
    device.lastAppRun = t
  }
}
