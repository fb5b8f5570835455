// swift-tools-version: 6.2
import PackageDescription

// Test code compiles unoptimized even in an optimized build (`scripts/test`): the simulations the tests drive
// run in the optimized libraries, and the tests' own code gains little from optimizing but builds slower.
let testSettings: [SwiftSetting] = [.unsafeFlags(["-Onone"])]

let package = Package(
  name: "widgetsim",
  products: [
    .executable(name: "widgetsim", targets: ["widgetsim"]),
    .library(name: "SimulationEngine", targets: ["SimulationEngine"]),
    .library(name: "Statistics", targets: ["Statistics"]),
    .library(name: "Results", targets: ["Results"]),
    // For the fuzz package in Fuzz/.
    .library(name: "ScenarioFiles", targets: ["ScenarioFiles"]),
    .library(name: "WidgetModel", targets: ["WidgetModel"]),
    .library(name: "Fleets", targets: ["Fleets"]),
    .library(name: "Reports", targets: ["Reports"]),
    .library(name: "Comparisons", targets: ["Comparisons"]),
    .library(name: "Sweeps", targets: ["Sweeps"]),
    .library(name: "FieldLogs", targets: ["FieldLogs"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
    .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.0"),
    .package(url: "https://github.com/apple/swift-collections.git", from: "1.1.0"),
    .package(url: "https://github.com/jpsim/Yams.git", from: "6.0.0"),
  ],
  targets: [
    // GNU Scientific Library: random number generators, distributions, statistics.
    .systemLibrary(
      name: "CGSL",
      pkgConfig: "gsl",
      providers: [.apt(["libgsl-dev"])]
    ),
    // The kernel: simulated time, the event set and run loop, random streams, distributions.
    // Knows nothing about widgets; imports only CGSL.
    .target(
      name: "SimulationEngine",
      dependencies: ["CGSL"]
    ),
    // Statistics over the kernel's numbers: running moments, confidence intervals, quantiles and sketches,
    // the per-second load model and its fits, minimisation, two-sample tests, sequential selection.
    // Knows nothing about widgets; imports CGSL and SimulationEngine.
    .target(
      name: "Statistics",
      dependencies: ["CGSL", "SimulationEngine"]
    ),
    // Results below the model: accumulators and their storage (compact counts, booked columns, slot sets,
    // count histograms, typed layouts, spare pools). Knows nothing of widgets; imports only SimulationEngine
    // (and Synchronization for the spare pool's lock).
    .target(
      name: "ResultStorage",
      dependencies: ["SimulationEngine"]
    ),
    // What the model records: ReplicationResult and its accumulators (reloads, staleness, energy, pushes,
    // server load, app wakes), the vocabulary they are kept by (reload causes and outcomes, energy components,
    // server sources, typed identities), their binary coding and the result pool. Knows no configuration and
    // no device; imports SimulationEngine and ResultStorage.
    .target(
      name: "Results",
      dependencies: ["SimulationEngine", "Statistics", "ResultStorage"]
    ),
    // The WidgetKit refresh model: user, widgets, budgets, triggers, one device through simulated days.
    .target(
      name: "WidgetModel",
      dependencies: [
        "SimulationEngine", "Statistics", "ResultStorage", "Results",
        .product(name: "DequeModule", package: "swift-collections"),
      ]
    ),
    // Fleets over threads and shards: which thread runs which devices, merging the threads' results.
    .target(
      name: "Fleets",
      dependencies: ["SimulationEngine", "Results", "WidgetModel"]
    ),
    // Scenario files (YAML through Yams) -> model configuration, with positions in every error.
    .target(
      name: "ScenarioFiles",
      dependencies: ["SimulationEngine", "Results", "WidgetModel", .product(name: "Yams", package: "Yams")]
    ),
    // What every command shares, below every library that a command calls: CommandFailure (message and exit
    // status), Console, StopRequest and the process's SIGINT / SIGTERM handling (Interruption).
    .target(
      name: "CommandSupport"
    ),
    // Reports: CSV writers (one per report, see RunReport), run summaries with confidence intervals and their
    // console text, the progress line, the manifest; written atomically.
    .target(
      name: "Reports",
      dependencies: ["CommandSupport", "SimulationEngine", "Statistics", "Results", "WidgetModel"]
    ),
    // Running a loaded scenario and writing its reports: `run`; `check` (the run, then the baseline's gates or
    // the field logs' check); `merge` (a fleet run's shards, or a sweep's).
    .target(
      name: "Runs",
      dependencies: [
        "CommandSupport", "Comparisons", "FieldLogs", "Sweeps", "HTMLReport", "ScenarioFiles", "Reports", "Results",
        "WidgetModel", "Fleets",
      ]
    ),
    // The chart library report.html embeds (vendored JavaScript, see Sources/CVegaBundle/THIRD_PARTY.md).
    .target(
      name: "CVegaBundle",
      exclude: ["vega-bundle.js", "THIRD_PARTY.md"]
    ),
    // report.html: charts and tables from a run's or a sweep's CSV reports.
    .target(
      name: "HTMLReport",
      dependencies: ["CommandSupport", "Reports", "CVegaBundle"]
    ),
    // Parameter sweeps: plans, the durable journal, running over threads and shards, sweep reports; `sweep`
    // and `merge`.
    .target(
      name: "Sweeps",
      dependencies: [
        "CommandSupport", "SimulationEngine", "Statistics", "Results", "WidgetModel", "ScenarioFiles", "Reports",
      ]
    ),
    // Comparing two runs: per-metric differences with Welch or paired t-tests, regression gates.
    .target(
      name: "Comparisons",
      dependencies: ["CGSL", "CommandSupport", "SimulationEngine", "Statistics", "Results", "Reports"]
    ),
    // Field logs: what an app logged on real phones (JSON Lines), `run --field-log`, calibrating a
    // scenario's uncertain parameters to the logs, and the goodness of fit (`calibrate`, `check --observed`).
    .target(
      name: "FieldLogs",
      dependencies: [
        "CGSL", "CommandSupport", "SimulationEngine", "Statistics", "WidgetModel", "ScenarioFiles", "Reports",
        "Comparisons",
      ]
    ),
    // Benchmark kernels behind `widgetsim bench` and the baseline gate; imports the engine, the model,
    // scenario files and sweeps, never the CLI.
    .target(
      name: "Benchmarks",
      dependencies: [
        "CommandSupport", "SimulationEngine", "Statistics", "Results", "WidgetModel", "Fleets", "ScenarioFiles",
        "Sweeps", "Reports", "Runs", "FieldLogs",
      ]
    ),
    // The command-line tool: a thin skin over the libraries.
    .executableTarget(
      name: "widgetsim",
      dependencies: [
        "Benchmarks",
        "CommandSupport",
        "Comparisons",
        "FieldLogs",
        "Fleets",
        "HTMLReport",
        "Reports",
        "Runs",
        "ScenarioFiles",
        "Results",
        "Sweeps",
        "SimulationEngine",
        "Statistics",
        "WidgetModel",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // Helpers shared by the test targets (repository paths, file reading); not shipped.
    .target(
      name: "TestSupport",
      path: "Tests/TestSupport"
    ),
    .testTarget(
      name: "SimulationEngineTests",
      dependencies: [
        "SimulationEngine",
        "Statistics",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      swiftSettings: testSettings
    ),
    .testTarget(
      name: "StatisticsTests",
      dependencies: ["Statistics", "SimulationEngine", "CGSL"],
      swiftSettings: testSettings
    ),
    .testTarget(
      name: "ResultStorageTests",
      dependencies: ["ResultStorage", "SimulationEngine"],
      swiftSettings: testSettings
    ),
    .testTarget(
      name: "ResultsTests",
      dependencies: ["Results", "SimulationEngine", "Statistics"],
      swiftSettings: testSettings
    ),
    .testTarget(
      name: "WidgetModelTests",
      dependencies: [
        "Results", "WidgetModel", "ResultStorage", "Fleets", "SimulationEngine", "Statistics", "TestSupport",
      ],
      swiftSettings: testSettings
    ),
    .testTarget(
      name: "ScenarioFilesTests",
      dependencies: ["ScenarioFiles", "Results", "WidgetModel", "SimulationEngine", "TestSupport"],
      exclude: ["Fixtures"],
      swiftSettings: testSettings
    ),
    .testTarget(
      name: "ReportsTests",
      dependencies: [
        "CGSL", "CommandSupport", "Reports", "ScenarioFiles", "Results", "WidgetModel", "Fleets", "SimulationEngine",
        "Statistics", "TestSupport",
      ],
      exclude: ["Fixtures"],
      swiftSettings: testSettings
    ),
    .testTarget(
      name: "RunsTests",
      dependencies: [
        "Runs", "CommandSupport", "Comparisons", "FieldLogs", "Sweeps", "Reports", "ScenarioFiles", "Fleets",
        "Statistics", "TestSupport",
      ],
      swiftSettings: testSettings
    ),
    .testTarget(
      name: "SweepsTests",
      dependencies: [
        "Sweeps", "CommandSupport", "Reports", "ScenarioFiles", "WidgetModel", "SimulationEngine", "Statistics",
        "TestSupport", "CGSL",
      ],
      swiftSettings: testSettings
    ),
    .testTarget(
      name: "ComparisonsTests",
      dependencies: [
        "Comparisons", "CommandSupport", "Reports", "Results", "ScenarioFiles", "WidgetModel", "CGSL", "TestSupport",
      ],
      swiftSettings: testSettings
    ),
    // Runs the widgetsim executable as a child process (SIGKILL at random moments, --force); also the checks
    // and console lines of report.html that the commands share (HTMLReport has no test target of its own).
    .testTarget(
      name: "CommandLineTests",
      dependencies: ["widgetsim", "HTMLReport", "CommandSupport", "Reports", "SimulationEngine", "TestSupport"],
      swiftSettings: testSettings
    ),
    .testTarget(
      name: "FieldLogsTests",
      dependencies: ["FieldLogs", "Reports", "ScenarioFiles", "WidgetModel", "SimulationEngine", "TestSupport"],
      exclude: ["Fixtures"],
      swiftSettings: testSettings
    ),
    .testTarget(
      name: "BenchmarksTests",
      dependencies: ["Benchmarks", "CommandSupport", "Reports", "SimulationEngine", "TestSupport"],
      swiftSettings: testSettings
    ),
  ],
  swiftLanguageModes: [.v6]
)
