import Results
import SimulationEngine

/// What the user sees of the Live Activities: every one on the Lock Screen at a Lock Screen view, the most
/// relevant running one in the Dynamic Island; each view records how current it is and whether it was past
/// its stale date.
extension LiveActivities {
  /// A Lock Screen view sees every activity on the Lock Screen.
  mutating func lockScreenViewed(at now: SimTime, _ result: inout some ActivityRecording) {
    var position = 0
    while position < onLockScreen.count {
      seen(onLockScreen[position], on: .lockScreen, at: now, &result)
      position += 1
    }
  }

  /// A glance at the Dynamic Island while the user is in another app: the running activity with the
  /// highest `relevance_score` shows [D]; of equal scores the earliest started [A]. `expandedShare` of the
  /// glances expand it.
  mutating func dynamicIslandViewed(expandedShare: Double, at now: SimTime, _ result: inout some ActivityRecording) {
    var shown: ActivityID?
    var best = -Double.infinity
    var position = 0
    while position < onLockScreen.count {
      let activity = onLockScreen[position]
      position += 1
      guard runtime[activity.index].isRunning else { continue }
      let score = kinds[records[activity.index].kind.index].relevanceScore
      if score > best {
        best = score
        shown = activity
      }
    }
    guard let shown else { return }
    let surface: ActivitySurface =
      dynamicIsland.bernoulli(expandedShare) ? .dynamicIslandExpanded : .dynamicIslandCompact
    seen(shown, on: surface, at: now, &result)
  }

  /// One view of one activity: how long its content has lagged the server (``ActivityRuntime/firstUndelivered``)
  /// and whether a running activity was past its stale date (content older than `stale_after`).
  private mutating func seen(
    _ activity: ActivityID, on surface: ActivitySurface, at now: SimTime, _ result: inout some ActivityRecording
  ) {
    let kind = records[activity.index].kind
    let state = runtime[activity.index]
    var staleness = SimDuration.zero
    if let since = state.firstUndelivered { staleness = now - since }
    result.recordActivityStaleness(kind: kind.index, staleness)
    var pastStaleDate = false
    if state.isRunning, let staleAfter = kinds[kind.index].staleAfter {
      pastStaleDate = now - state.contentTime > staleAfter
    }
    result.countActivityView(kind: kind.index, surface, pastStaleDate: pastStaleDate)
  }
}
