import Fleets
import Reports
import ScenarioFiles
import WidgetModel

#if canImport(Glibc)
  import Glibc
#endif

// A libFuzzer target: any bytes as a scenario file. Loading must either succeed or throw a `ScenarioError`;
// a scenario that loads must have a finite work estimate, and is then simulated (two days, at most two
// devices, as one shard of N = 1-3 chosen by the input's length: `run --shard`) and every summary figure must
// be finite or NaN (an empty cell), never infinite. Fleet events, follow-ups and bursts reach the model's
// event set this way (their seeds are in Fuzz/Seeds/scenario). A crash, a hang or unbounded memory is a bug,
// which libFuzzer reports with the input that caused it.
//
// SwiftPM links an executable's entry point under its own name, so libFuzzer's `main` is not used; this
// entry point hands control to libFuzzer's driver instead.

/// One input.
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data else { return 0 }
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  guard let loaded = try? ScenarioLoader.load(text: text, file: "fuzz.yaml") else { return 0 }
  if !loaded.work.events.isFinite || loaded.work.description.isEmpty { fatalError("work: \(loaded.work.events)") }
  var configuration = loaded.configuration
  configuration.days = min(configuration.days, 2)
  configuration.fleet.devices = min(configuration.fleet.devices, 2)
  let parts = min(configuration.fleet.devices, 1 + size % 3)
  let shard = FleetShard(index: size % parts, count: parts)
  guard let result = FleetRunner.run(configuration, replication: 0, jobs: 1, shard: shard, stop: nil)?.result else {
    fatalError("a run without a stop request stopped")
  }
  let accumulator = RunSummary.Accumulator(subjects: RunSummary.Subjects(configuration))
  for value in accumulator.values(of: result) where value.value.isInfinite {
    fatalError("\(value.metric) of \(value.widget) is \(value.value)")
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
