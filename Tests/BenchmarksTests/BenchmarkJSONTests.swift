import Foundation
import Testing

@testable import Benchmarks

/// `bench --json`: github-action-benchmark's custom format, read back with a JSON parser.
@Suite("Benchmark JSON")
struct BenchmarkJSONTests {
  static let results = [
    BenchmarkResult(
      benchmark: "model_events", parameter: "polling", unit: "million_events_per_s", samples: [4.1, 4.5, 4.3]),
    BenchmarkResult(
      benchmark: "fleet_devices", parameter: "fleet \"200\"", unit: "devices_per_s", samples: [1_000, 1_100]),
    BenchmarkResult(benchmark: "generator_uniform", parameter: "taus2", unit: "ns_per_draw", samples: [3.1, 2.9, 3.0]),
  ]

  /// The entries of a JSON list of objects.
  static func entries(_ text: String) throws -> [[String: Any]] {
    let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8))
    return try #require(parsed as? [[String: Any]], "a JSON list of objects: \(text)")
  }

  @Test("one entry per figure of the direction, with name, unit, the median as value, range and extra")
  func format() throws {
    let bigger = try Self.entries(BenchmarkJSON.json(Self.results, direction: .higherIsBetter))
    #expect(bigger.count == 2)
    #expect(bigger.allSatisfy { Set($0.keys) == ["name", "unit", "value", "range", "extra"] })
    #expect(bigger[0]["name"] as? String == "model_events polling")
    #expect(bigger[0]["unit"] as? String == "million_events_per_s")
    #expect((bigger[0]["value"] as? NSNumber)?.doubleValue == 4.3)
    #expect(bigger[0]["range"] as? String == "± 0.200")
    #expect(bigger[0]["extra"] as? String == "median of 3 repetitions; min 4.100, max 4.500")
    #expect(bigger[1]["name"] as? String == "fleet_devices fleet \"200\"", "quotes are escaped")
    #expect((bigger[1]["value"] as? NSNumber)?.doubleValue == 1_050)

    let smaller = try Self.entries(BenchmarkJSON.json(Self.results, direction: .lowerIsBetter))
    #expect(smaller.count == 1 && smaller[0]["unit"] as? String == "ns_per_draw")
    #expect((smaller[0]["value"] as? NSNumber)?.doubleValue == 3.0)
    #expect(try Self.entries(BenchmarkJSON.json([], direction: .lowerIsBetter)).isEmpty)
  }
}
