import SimulationEngine
import Statistics
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite struct MinimizerTests {
  @Test func findsAQuadraticsMinimum() {
    let result = Minimizer.minimize(
      { p in (p[0] - 3) * (p[0] - 3) + 2 * (p[1] + 1) * (p[1] + 1) + 5 }, from: [0, 0], steps: [1, 1])
    #expect(result.converged)
    #expect(abs(result.parameters[0] - 3) < 1e-6)
    #expect(abs(result.parameters[1] + 1) < 1e-6)
    #expect(abs(result.value - 5) < 1e-10)
    // A search cut short says so.
    #expect(!Minimizer.minimize({ p in p[0] * p[0] }, from: [100], steps: [1], maximumIterations: 3).converged)
  }

  @Test func hessianAndInverseOfAQuadratic() throws {
    let hessian = Minimizer.hessian({ p in 2 * p[0] * p[0] + p[0] * p[1] + 3 * p[1] * p[1] }, at: [1, 2])
    #expect(abs(hessian[0][0] - 4) < 1e-5)
    #expect(abs(hessian[0][1] - 1) < 1e-5)
    #expect(abs(hessian[1][1] - 6) < 1e-5)
    let inverse = try #require(Minimizer.inverse(hessian))
    // [[4, 1], [1, 6]]^-1 = [[6, -1], [-1, 4]] / 23.
    #expect(abs(inverse[0][0] - 6.0 / 23) < 1e-6)
    #expect(abs(inverse[0][1] + 1.0 / 23) < 1e-6)
    #expect(Minimizer.inverse([[1, 2], [2, 1]]) == nil)
  }

  /// The exponential's likelihood with right-censored values has its maximum at (sum of all values) /
  /// (exact values).
  @Test func censoredExponentialMaximumLikelihood() {
    let exact = [10.0, 30, 50, 70]
    let censored = [100.0, 40]
    let result = Minimizer.minimize(
      { p in
        let mean = exp(p[0])
        return exact.reduce(0) { $0 + log(mean) + $1 / mean } + censored.reduce(0) { $0 + $1 / mean }
      }, from: [log(20)], steps: [0.5])
    #expect(result.converged)
    #expect(abs(exp(result.parameters[0]) / (300.0 / 4) - 1) < 1e-6)
  }
}
