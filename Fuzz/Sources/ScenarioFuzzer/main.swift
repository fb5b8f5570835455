import Reports
import ScenarioFiles
import WidgetModel

#if canImport(Glibc)
  import Glibc
#endif

// A libFuzzer target: any bytes as a scenario file. Loading must either succeed or throw a `ScenarioError`;
// a scenario that loads is then simulated (two days, at most two devices) and every summary figure must be
// finite or NaN (an empty cell), never infinite. A crash, a hang or unbounded memory is a bug, which
// libFuzzer reports with the input that caused it.
//
// SwiftPM links an executable's entry point under its own name, so libFuzzer's `main` is not used; this
// entry point hands control to libFuzzer's driver instead.

/// One input.
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data else { return 0 }
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  guard var configuration = try? ScenarioLoader.load(text: text, file: "fuzz.yaml").configuration else { return 0 }
  configuration.days = min(configuration.days, 2)
  configuration.fleet.devices = min(configuration.fleet.devices, 2)
  let result = FleetRunner.run(configuration, replication: 0, jobs: 1).result
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
