import FieldLogs
import ScenarioFiles

#if canImport(Glibc)
  import Glibc
#endif

// A libFuzzer target: any bytes as a field log. Each line must read as a record, be skipped, or be refused
// with a FieldLogError naming line 1 or later; the records that read go into the observations, and every
// estimator runs on what they show: an estimate and its interval are finite and in order, or refused.

let base = try! ScenarioLoader.loadDefault(overrides: [ScenarioOverride("app.background_refresh={interval: 1h}")])
  .configuration

func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  var reader = FieldLogReader()
  var observations = FieldObservations(refreshIntervalSeconds: 3_600, lowBattery: 0.2)
  for (index, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
    do {
      guard let entry = try reader.entry(Array(line), path: "fuzz.jsonl", line: index + 1) else { continue }
      _ = observations.add(entry)
    } catch {
      if error.line != index + 1 { fatalError("an error names line \(error.line ?? -1), not \(index + 1)") }
    }
  }
  for fit in FieldEstimators.fit(observations.finish(), base: base) {
    guard let estimate = fit.estimate else { continue }
    let (low, high) = (fit.low ?? .nan, fit.high ?? .nan)
    if !estimate.isFinite || low.isNaN || high.isNaN || low > high {
      fatalError("\(fit.key): estimate \(estimate), interval \(low)...\(high)")
    }
  }
  return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
  _ argc: UnsafeMutablePointer<Int32>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

var argumentCount = CommandLine.argc
var arguments = CommandLine.unsafeArgv
exit(runFuzzerDriver(&argumentCount, &arguments, fuzzOne))
