import Sweeps

#if canImport(Glibc)
  import Glibc
#endif

// A libFuzzer target: any bytes as a sweep journal (what `sweep` resumes and `merge` reads). Reading must either
// succeed or throw a `JournalError`, and no task may come out both done and corrupt.

func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data else { return 0 }
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  guard let contents = try? SweepJournal.contents(of: text, path: "fuzz.txt") else { return 0 }
  for task in contents.corrupt where contents.done[task] != nil {
    fatalError("task \(task) is both done and corrupt")
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
