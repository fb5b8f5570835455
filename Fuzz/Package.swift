// swift-tools-version: 6.1
// A libFuzzer target over widgetsim's scenario loader and model, kept in its own package: it is built only with
// `-sanitize=fuzzer` (libFuzzer supplies `main`), never by the main package's `swift build`.
// Build and run with ../scripts/fuzz.
import PackageDescription

let package = Package(
  name: "widgetsim-fuzz",
  dependencies: [.package(name: "widgetsim", path: "..")],
  targets: [
    .executableTarget(
      name: "ScenarioFuzzer",
      dependencies: [
        .product(name: "ScenarioFiles", package: "widgetsim"),
        .product(name: "WidgetModel", package: "widgetsim"),
        .product(name: "Fleets", package: "widgetsim"),
        .product(name: "Reports", package: "widgetsim"),
      ]
    ),
    // The readers of files other programs (or people) hand to widgetsim: replications.csv and the sweep journal.
    .executableTarget(
      name: "ReplicationsFuzzer",
      dependencies: [.product(name: "Comparisons", package: "widgetsim")]
    ),
    // Field logs (`calibrate`, `check --observed`): the reader, the observations and every estimator.
    .executableTarget(
      name: "FieldLogFuzzer",
      dependencies: [
        .product(name: "FieldLogs", package: "widgetsim"),
        .product(name: "ScenarioFiles", package: "widgetsim"),
      ]
    ),
    .executableTarget(
      name: "JournalFuzzer",
      dependencies: [.product(name: "Sweeps", package: "widgetsim")]
    ),
  ],
  swiftLanguageModes: [.v6]
)
