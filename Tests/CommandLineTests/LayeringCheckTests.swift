import TestSupport
import Testing

/// `scripts/check-layering` (run by CI on the repository) run on small fixture trees: a docs/ARCHITECTURE.md
/// with an architecture table shaped like the real one, and Sources/ folders whose imports follow it or not.
@Suite("scripts/check-layering")
struct LayeringCheckTests {
  static let script = Repository.path("scripts/check-layering")

  static let architecture = """
    # Fixture

    ## Modules

    Imports point downward only.

    | module | what it holds | may import |
    |---|---|---|
    | `CLib` (`Sources/CLib`) | a system library | the C library `libz` |
    | `Engine` | time and events | `CLib` |
    | `Model` | widgets | `Engine`, `DequeModule` (swift-collections: `Deque` for `Engine`'s queue) |
    | `Files` | scenario files | `Model`, `Yams` |
    | `Chart` | a chart library | nothing |
    | `tool` | the command-line tool | everything above, `ArgumentParser` |

    Text after the table.

    ### A subsection

    | `Stray` | another table | `Anything` |

    ## Another section

    | `Stray` | not the architecture table | `Anything` |

    """

  /// A tree whose every import the table allows, in every form the script reads; the imports in comments and
  /// string literals would not be allowed.
  static let cleanSources: [String: String] = [
    "Sources/CLib/module.modulemap": "module CLib [system] { header \"shim.h\" }\n",
    "Sources/CLib/shim.h": "#include <zlib.h>\n",
    "Sources/Engine/Clock.swift": """
    import CLib

    #if canImport(Glibc)
      import Glibc
    #elseif canImport(Darwin)
      import Darwin
    #endif

    // import Yams: a comment is not an import.
    /* A block comment,
       import Yams
       /* nested */
       import Yams
    */
    let help = \"""
      import Yams
      \"""
    let opener = "/*"  // a string holding comment syntax starts no comment
    import Swift

    """,
    "Sources/Model/Widget.swift": """
    import DequeModule
    @preconcurrency import Engine

    struct Widget {}

    """,
    "Sources/Files/Loader.swift": "@_exported import Model\npublic import Yams\n\npublic struct Loader {}\n",
    "Sources/Chart/Chart.swift": "import Glibc\n\nlet chart = 1\n",
    "Sources/tool/main.swift": """
    import ArgumentParser
    import struct Files.Loader
    @testable import Engine
    import CLib
    import Chart

    """,
  ]

  /// Writes `files` (path relative to the root: contents) under a new temporary root; returns the root.
  static func tree(architecture: String = architecture, _ files: [String: String] = cleanSources) throws -> String {
    let root = TestFiles.temporaryDirectory()
    try TestFiles.write(files.merging(["docs/ARCHITECTURE.md": architecture], uniquingKeysWith: { $1 }), under: root)
    return root
  }

  /// Runs the script on `root`: its exit code and what it printed (standard output and error together).
  static func check(_ root: String) throws -> (code: Int32, output: String) {
    try Subprocess.run(program: script, [root])
  }

  @Test("a tree that follows its table passes with a one-line summary")
  func cleanTreePasses() throws {
    let (code, output) = try LayeringCheckTests.check(try LayeringCheckTests.tree())
    #expect(code == 0, "\(output)")
    #expect(
      output == "check-layering: OK, 14 imports in 5 Swift files of 6 modules follow the architecture table\n")
  }

  @Test("a planted import the table does not allow fails, naming the file, the line and what is allowed")
  func plantedImportFails() throws {
    var sources = LayeringCheckTests.cleanSources
    sources["Sources/Model/Widget.swift", default: ""] += "import Yams\n"
    let (code, output) = try LayeringCheckTests.check(try LayeringCheckTests.tree(sources))
    #expect(code == 1)
    #expect(
      output.contains(
        "Sources/Model/Widget.swift:5: Model imports Yams, which the architecture table does not allow (allowed: Engine, DequeModule)\n"
      ), "\(output)")
    #expect(output.hasSuffix("check-layering: 1 problem(s); see docs/ARCHITECTURE.md, \"Modules\"\n"), "\(output)")
  }

  @Test(
    "every form of import is read",
    arguments: [
      ("Sources/Engine/Clock.swift", "@testable import Files", "Engine imports Files", "allowed: CLib"),
      (
        "Sources/Model/Widget.swift", "import struct Files.Loader", "Model imports Files",
        "allowed: Engine, DequeModule"
      ),
      ("Sources/Chart/Chart.swift", "  import Foundation", "Chart imports Foundation", "allowed: nothing"),
      (
        "Sources/Chart/Chart.swift", "@_spi(Raw) @preconcurrency internal import Dispatch", "Chart imports Dispatch", ""
      ),
      ("Sources/Files/Loader.swift", "import tool", "Files imports tool", "allowed: Model, Yams"),
    ])
  func importForms(file: String, line: String, message: String, allowed: String) throws {
    var sources = LayeringCheckTests.cleanSources
    sources[file, default: ""] += line + "\n"
    let (code, output) = try LayeringCheckTests.check(try LayeringCheckTests.tree(sources))
    #expect(code == 1)
    #expect(output.contains("\(file):"), "\(output)")
    #expect(output.contains(message), "\(output)")
    #expect(allowed.isEmpty || output.contains(allowed), "\(output)")
  }

  @Test("a module the table does not list, a row naming no module, and a table split by a blank line fail")
  func tableMismatchesFail() throws {
    var sources = LayeringCheckTests.cleanSources
    sources["Sources/Extra/Extra.swift"] = "import Engine\n"
    var (code, output) = try LayeringCheckTests.check(try LayeringCheckTests.tree(sources))
    #expect(code == 1)
    #expect(
      output.contains(
        "Sources/Extra: module Extra is not in the architecture table; add a row saying what it may import"),
      "\(output)")
    #expect(!output.contains("Sources/Extra/Extra.swift"), "one message for the module, not one per import")

    sources = LayeringCheckTests.cleanSources
    sources["Sources/Chart/Chart.swift"] = nil
    (code, output) = try LayeringCheckTests.check(try LayeringCheckTests.tree(sources))
    #expect(code == 1)
    #expect(
      output.contains(
        "docs/ARCHITECTURE.md:13: the architecture table lists `Chart`, which is not a module under Sources/"),
      "\(output)")

    let split = LayeringCheckTests.architecture.replacing("| `Files` |", with: "\n| `Files` |")
    (code, output) = try LayeringCheckTests.check(try LayeringCheckTests.tree(architecture: split))
    #expect(code == 1)
    #expect(output.contains("docs/ARCHITECTURE.md:13: a blank line splits the architecture table"), "\(output)")
  }

  @Test("no docs/ARCHITECTURE.md, or no architecture table in it, exits 2")
  func unreadableExits2() throws {
    let root = try LayeringCheckTests.tree(architecture: "# Fixture\n\nNo table here.\n")
    #expect(try LayeringCheckTests.check(root).code == 2)
    #expect(try LayeringCheckTests.check(TestFiles.temporaryDirectory()).code == 2)
  }

  @Test("the repository's docs/ARCHITECTURE.md lists exactly the modules under Sources/, in one table")
  func repositoryTableListsEveryModule() throws {
    // Module folders without their files: this checks the table against Sources/ and leaves the imports to
    // CI, which runs the script on the repository itself.
    let modules = try TestFiles.list(Repository.path("Sources"))
    let root = try LayeringCheckTests.tree(
      architecture: try TestFiles.read(Repository.path("docs/ARCHITECTURE.md")),
      Dictionary(uniqueKeysWithValues: modules.map { ("Sources/\($0)/Empty.swift", "") }))
    let (code, output) = try LayeringCheckTests.check(root)
    #expect(code == 0, "\(output)")
    #expect(output.contains("of \(modules.count) modules"), "\(output)")
  }
}
