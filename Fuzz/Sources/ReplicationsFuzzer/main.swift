import Comparisons

#if canImport(Glibc)
  import Glibc
#endif

// A libFuzzer target: any bytes as a replications.csv (what `compare` and `check` read). Parsing must either
// succeed or throw a `ComparisonError`; a table that parses is compared with itself under the default gates
// (which may be refused, never crash), and every interval it reports is finite.

func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data else { return 0 }
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  guard let table = try? ReplicationTable.parse(text, path: "fuzz.csv") else { return 0 }
  guard let comparison = try? Comparison(baseline: table, candidate: table, gates: Gate.defaults) else { return 0 }
  for row in comparison.rows {
    guard let test = row.test else { continue }
    if !test.isFinite { fatalError("\(row.key.metric) (\(row.key.widget)): statistics not finite") }
    if test.difference != 0 { fatalError("\(row.key.metric) (\(row.key.widget)): a table differs from itself") }
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
