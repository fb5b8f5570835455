// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "widgetsim",
  products: [
    .executable(name: "widgetsim", targets: ["widgetsim"]),
    .library(name: "SimulationEngine", targets: ["SimulationEngine"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
    .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.0"),
  ],
  targets: [
    // GNU Scientific Library: random number generators, distributions, statistics.
    .systemLibrary(
      name: "CGSL",
      pkgConfig: "gsl",
      providers: [.apt(["libgsl-dev"])]
    ),
    // Simulated time, the event set and run loop, random streams, distributions, statistics.
    // Knows nothing about widgets; imports only CGSL.
    .target(
      name: "SimulationEngine",
      dependencies: ["CGSL"]
    ),
    // Benchmark kernels behind `widgetsim bench`; imports the engine (later the model), never the CLI.
    .target(
      name: "Benchmarks",
      dependencies: ["SimulationEngine"]
    ),
    // The command-line tool: a thin skin over the libraries.
    .executableTarget(
      name: "widgetsim",
      dependencies: [
        "Benchmarks",
        "SimulationEngine",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(
      name: "SimulationEngineTests",
      dependencies: [
        "SimulationEngine",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    .testTarget(
      name: "BenchmarksTests",
      dependencies: ["Benchmarks", "SimulationEngine"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
