import TestSupport
import Testing

/// `scripts/check-limits` (run by CI on the repository) run on small fixture trees: files and functions
/// within their limits or past them, listed in the exceptions file or not.
@Suite("scripts/check-limits")
struct LimitsCheckTests {
  static let script = Repository.path("scripts/check-limits")

  /// A Swift file of `lines` lines, with a function whose body spans `body` lines.
  static func swift(lines: Int, body: Int = 3) -> String {
    var text = ["func work() {"] + Array(repeating: "  let x = \"{\"  // }", count: body - 2) + ["}"]
    text += Array(repeating: "// filler", count: Swift.max(0, lines - text.count))
    return text.joined(separator: "\n") + "\n"
  }

  /// A tree holding `files` (path: contents) and the exceptions file `listed`.
  static func tree(_ files: [String: String], listed: String = "") throws -> String {
    let root = TestFiles.temporaryDirectory()
    try TestFiles.write(files.merging(["scripts/limits-exceptions.txt": listed], uniquingKeysWith: { $1 }), under: root)
    return root
  }

  static func check(_ root: String) throws -> (code: Int32, output: String) {
    try Subprocess.run(program: script, [root])
  }

  @Test("files and functions within their limits pass; braces in strings and comments do not count")
  func withinLimits() throws {
    let root = try Self.tree([
      "Sources/Engine/Clock.swift": Self.swift(lines: 400, body: 60),
      "Sources/WidgetModel/Widget.swift": Self.swift(lines: 300),
      "Sources/widgetsim/main.swift": Self.swift(lines: 300),
      "Sources/widgetsim/Run.swift": Self.swift(lines: 350),
    ])
    let (code, output) = try Self.check(root)
    #expect(code == 0, "\(output)")
    #expect(output.hasPrefix("check-limits: OK"), "\(output)")
  }

  @Test(
    "a file, a model file, a function or the command-line target past its limit fails, naming it",
    arguments: [
      ("Sources/Engine/Clock.swift", 401, 3, "file Sources/Engine/Clock.swift: 401 lines, over the limit of 400"),
      (
        "Sources/WidgetModel/Widget.swift", 301, 3,
        "file Sources/WidgetModel/Widget.swift: 301 lines, over the limit of 300"
      ),
      (
        "Sources/Results/Tally.swift", 301, 3,
        "file Sources/Results/Tally.swift: 301 lines, over the limit of 300"
      ),
      (
        "Sources/Engine/Clock.swift", 100, 61,
        "function Sources/Engine/Clock.swift work: 61 lines, over the limit of 60"
      ),
      ("Sources/widgetsim/main.swift", 399, 3, "target Sources/widgetsim: 749 lines, over the limit of 650"),
    ])
  func pastLimits(path: String, lines: Int, body: Int, message: String) throws {
    // Beside a command-line file of 350 lines.
    let files = [path: Self.swift(lines: lines, body: body), "Sources/widgetsim/Run.swift": Self.swift(lines: 350)]
    let (code, output) = try Self.check(try Self.tree(files))
    #expect(code == 1)
    #expect(output.contains(message), "\(output)")
  }

  @Test("a listed item may stay as it is; grown, back within its limit, or gone, it fails")
  func listedItems() throws {
    let files = ["Sources/Engine/Clock.swift": Self.swift(lines: 420, body: 70)]
    let listed = "# older code\nfile Sources/Engine/Clock.swift 420\nfunction Sources/Engine/Clock.swift work 70\n"
    #expect(try Self.check(try Self.tree(files, listed: listed)).code == 0)
    var (code, output) = try Self.check(
      try Self.tree(files, listed: listed.replacing("work 70", with: "work 65")))
    #expect(code == 1 && output.contains("work: 70 lines, grown past the 65"), "\(output)")
    (code, output) = try Self.check(
      try Self.tree(["Sources/Engine/Clock.swift": Self.swift(lines: 390, body: 70)], listed: listed))
    #expect(code == 1 && output.contains("within the limit of 400 now: remove its line"), "\(output)")
    (code, output) = try Self.check(try Self.tree(files, listed: listed + "file Sources/Gone.swift 500\n"))
    #expect(code == 1 && output.contains("Sources/Gone.swift: listed"), "\(output)")
  }

  @Test("a computed property's body and a property's closure count as a function's, named var:NAME")
  func propertyBodies() throws {
    func body(_ head: String, _ lines: Int) -> String {
      ([head] + Array(repeating: "    let x = 1", count: lines - 2) + ["  }"]).joined(separator: "\n")
    }
    let source = [
      "struct Table {",
      body("  var rows: [Int] {", 61),
      body("  static let cells: [Int] = {", 62),
      body("  public private(set) var kept: Int {", 60),
      "  func work() {",
      "    if let x {",
      "    }",
      "  }",
      "}",
    ].joined(separator: "\n")
    let (code, output) = try Self.check(try Self.tree(["Sources/Engine/Table.swift": source + "\n"]))
    #expect(code == 1)
    #expect(
      output.contains("function Sources/Engine/Table.swift var:rows: 61 lines, over the limit of 60"), "\(output)")
    #expect(
      output.contains("function Sources/Engine/Table.swift var:cells: 62 lines, over the limit of 60"), "\(output)")
    #expect(!output.contains("var:kept") && !output.contains("var:x"), "\(output)")
  }

  @Test("eleven long functions listed fail, ten pass")
  func listedFunctionCap() throws {
    var files: [String: String] = [:]
    var listed = ""
    for index in 0..<11 {
      files["Sources/Engine/Part\(index).swift"] = Self.swift(lines: 80, body: 70)
      listed += "function Sources/Engine/Part\(index).swift work 70\n"
    }
    var (code, output) = try Self.check(try Self.tree(files, listed: listed))
    #expect(code == 1 && output.contains("11 functions over 60 lines listed, at most 10 may be"), "\(output)")
    files["Sources/Engine/Part10.swift"] = Self.swift(lines: 80, body: 50)
    listed = listed.replacing("function Sources/Engine/Part10.swift work 70\n", with: "")
    (code, output) = try Self.check(try Self.tree(files, listed: listed))
    #expect(code == 0, "\(output)")
  }

  @Test("a malformed exceptions line, or no Sources/, exits 2")
  func unreadable() throws {
    let sources = ["Sources/Engine/Clock.swift": Self.swift(lines: 5)]
    #expect(try Self.check(try Self.tree(sources, listed: "file Sources/x.swift many\n")).code == 2)
    #expect(try Self.check(TestFiles.temporaryDirectory()).code == 2)
  }

  @Test("the repository holds its limits")
  func repository() throws {
    let (code, output) = try Self.check(Repository.root)
    #expect(code == 0, "\(output)")
  }
}
