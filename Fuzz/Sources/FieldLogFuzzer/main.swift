import FieldLogs
import ScenarioFiles

#if canImport(Glibc)
  import Glibc
#endif

// A libFuzzer target: any bytes as a field log, and the same bytes as a server's send log. Each line must
// read as a record, be skipped, or be refused with a FieldLogError naming its line; the records that read
// go into the observations (the sends matched to the deliveries), and every estimator runs on what they
// show: an estimate and its interval are finite and in order, or refused.

let base = try! ScenarioLoader.loadDefault(overrides: [ScenarioOverride("app.background_refresh={interval: 1h}")])
  .configuration

func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  var reader = FieldLogReader()
  var server = ServerLogReader()
  var serverFailed = false
  var observations = FieldObservations(refreshIntervalSeconds: 3_600, lowBattery: 0.2)
  for (index, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
    do {
      guard let entry = try reader.entry(Array(line), path: "fuzz.jsonl", line: index + 1) else { continue }
      _ = observations.add(entry)
    } catch {
      if error.line != index + 1 { fatalError("an error names line \(error.line ?? -1), not \(index + 1)") }
    }
    // As a send log the bytes stop at their first bad row, as the reader stops.
    guard !serverFailed else { continue }
    do {
      guard let send = try server.entry(Array(line), path: "fuzz.csv", line: index + 1) else { continue }
      _ = observations.add(send)
    } catch {
      if error.line != index + 1 { fatalError("a send log error names line \(error.line ?? -1), not \(index + 1)") }
      serverFailed = true
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
