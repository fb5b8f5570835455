import Statistics
import Testing

@testable import SimulationEngine

@Suite("Random streams")
struct RandomStreamTests {
  @Test("SplitMix64 matches its reference output")
  func splitMixReference() {
    // Reference values of SplitMix64 seeded with 0 (Vigna's splitmix64.c).
    var generator = SplitMix64(state: 0)
    #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
    #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
    #expect(generator.next() == 0x06C4_5D18_8009_454F)
  }

  @Test("the same seed and stream id give the same draws", arguments: RandomGeneratorKind.allCases)
  func sameSeedSameDraws(kind: RandomGeneratorKind) {
    let seed = StreamSeed(scenarioSeed: 42, replication: 3, entity: 1_000_001, stream: 5)
    let first = RandomStream(seed: seed, kind: kind)
    let second = RandomStream(seed: seed, kind: kind)
    let a = (0..<1_000).map { _ in first.uniform() }
    let b = (0..<1_000).map { _ in second.uniform() }
    #expect(a == b)
  }

  @Test("different stream ids, entities, replications or seeds give different draws")
  func differentKeysDiffer() {
    let base = StreamSeed(scenarioSeed: 42, replication: 0, entity: 7, stream: 2)
    var variants = [base]
    variants.append(StreamSeed(scenarioSeed: 42, replication: 0, entity: 7, stream: 3))
    variants.append(StreamSeed(scenarioSeed: 42, replication: 0, entity: 8, stream: 2))
    variants.append(StreamSeed(scenarioSeed: 42, replication: 1, entity: 7, stream: 2))
    variants.append(StreamSeed(scenarioSeed: 43, replication: 0, entity: 7, stream: 2))
    // Components are not interchangeable: (entity 2, stream 7) is not (entity 7, stream 2).
    variants.append(StreamSeed(scenarioSeed: 42, replication: 0, entity: 2, stream: 7))
    let sequences = variants.map { seed in
      let stream = RandomStream(seed: seed)
      return (0..<16).map { _ in stream.uniform() }
    }
    for i in sequences.indices {
      for j in sequences.indices where j > i {
        #expect(sequences[i] != sequences[j], "\(variants[i]) and \(variants[j]) drew the same")
      }
    }
  }

  @Test("stream keys of a large fleet do not collide")
  func keysDoNotCollide() {
    var keys = Set<UInt64>()
    for entity in 0..<20_000 {
      for stream in 0..<10 {
        keys.insert(StreamSeed(scenarioSeed: 1, entity: UInt64(entity), stream: UInt64(stream)).key)
      }
    }
    #expect(keys.count == 200_000)
  }

  @Test("a stream's uniform draws are uniform: mean 1/2 within 4 standard errors, and in [0, 1)")
  func uniformDraws() {
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: 9))
    var statistics = RunningStatistics()
    for _ in 0..<100_000 {
      let u = stream.uniform()
      #expect(u >= 0 && u < 1)
      statistics.add(u)
    }
    let standardError = (1.0 / 12.0 / 100_000).squareRoot()
    #expect(abs(statistics.mean - 0.5) < 4 * standardError)
    var counts = [Int](repeating: 0, count: 6)
    for _ in 0..<60_000 { counts[stream.integer(below: 6)] += 1 }
    // Each face: binomial(60000, 1/6), sd ≈ 91.3.
    #expect(counts.allSatisfy { abs($0 - 10_000) < 4 * 92 })
  }
}
