import Results

/// What the app's wake channels write down, and nothing more of a replication's result: one chance for the
/// app to run, by channel and outcome, in the hour it arose. The device hands its result in; a test hands
/// in a log of its own.
protocol AppWakeRecording {
  mutating func countAppWake(hourIndex: Int, _ channel: AppWakeChannel, _ outcome: AppWakeOutcome)
}
