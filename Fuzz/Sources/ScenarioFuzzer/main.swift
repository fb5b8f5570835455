import ScenarioFiles

#if canImport(Glibc)
  import Glibc
#endif

// A libFuzzer target: any bytes as a scenario file. Loading must either succeed or throw a `ScenarioError`;
// a crash, a hang or unbounded memory is a bug, which libFuzzer reports with the input that caused it.
//
// SwiftPM links an executable's entry point under its own name, so libFuzzer's `main` is not used; this
// entry point hands control to libFuzzer's driver instead.

/// One input.
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data else { return 0 }
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  _ = try? ScenarioLoader.load(text: text, file: "fuzz.yaml")
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
