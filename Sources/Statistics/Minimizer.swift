import CGSL
import SimulationEngine

/// Minimising a smooth function of a few parameters without derivatives: GSL's Nelder-Mead simplex
/// (`gsl_multimin_fminimizer_nmsimplex2`), for maximum-likelihood fits (minimise the negative
/// log-likelihood). Not for the simulation's hot path: the objective is a Swift closure.
public enum Minimizer {
  /// Where the search ended: the parameters, the objective there, and whether the simplex shrank below the
  /// tolerance within the iteration limit (or below 1e-5 where the objective stops improving, flat to its last bit).
  public struct Result: Sendable {
    public let parameters: [Double]
    public let value: Double
    public let converged: Bool
  }

  /// Minimises `objective` from `start`, with first steps `steps` (one per parameter), until the simplex's
  /// size falls below `tolerance` or `maximumIterations` pass. A non-finite objective counts as +infinity
  /// (the simplex moves away from it).
  public static func minimize(
    _ objective: ([Double]) -> Double, from start: [Double], steps: [Double], tolerance: Double = 1e-8,
    maximumIterations: Int = 5_000
  ) -> Result {
    precondition(!start.isEmpty && start.count == steps.count, "one step per parameter")
    GSL.configure()
    return withoutActuallyEscaping(objective) { objective in
      var box = ObjectiveBox(objective: objective, count: start.count)
      return withUnsafeMutablePointer(to: &box) { pointer in
        let count = start.count
        var function = gsl_multimin_function(
          f: { vector, parameters in
            let box = parameters!.assumingMemoryBound(to: ObjectiveBox.self)
            let values = (0..<box.pointee.count).map { gsl_vector_get(vector, $0) }
            let value = box.pointee.objective(values)
            return value.isFinite ? value : Double.greatestFiniteMagnitude
          }, n: count, params: UnsafeMutableRawPointer(pointer))
        let x = gsl_vector_alloc(count)!
        let size = gsl_vector_alloc(count)!
        defer {
          gsl_vector_free(x)
          gsl_vector_free(size)
        }
        for index in 0..<count {
          gsl_vector_set(x, index, start[index])
          gsl_vector_set(size, index, steps[index])
        }
        let minimizer = gsl_multimin_fminimizer_alloc(widgetsim_multimin_nmsimplex2(), count)!
        defer { gsl_multimin_fminimizer_free(minimizer) }
        gsl_multimin_fminimizer_set(minimizer, &function, x, size)
        var converged = false
        var (bestValue, stalled) = (Double.infinity, 0)
        for _ in 0..<maximumIterations {
          let status = gsl_multimin_fminimizer_iterate(minimizer)
          let size = gsl_multimin_fminimizer_size(minimizer)
          if gsl_multimin_test_size(size, tolerance) == GSL_SUCCESS {
            converged = true
            break
          }
          // Flat to its last bit across a small simplex (a minimum's neighbourhood at double precision):
          // no step improves, so that is where it is.
          let value = minimizer.pointee.fval
          stalled = value < bestValue ? 0 : stalled + 1
          bestValue = Swift.min(bestValue, value)
          if status != GSL_SUCCESS || stalled >= 200 {
            converged = size < Swift.max(tolerance, 1e-5)
            break
          }
        }
        let best = minimizer.pointee.x!
        return Result(
          parameters: (0..<count).map { gsl_vector_get(best, $0) }, value: minimizer.pointee.fval, converged: converged)
      }
    }
  }

  /// The matrix of second derivatives of `function` at `point`, by central differences with relative steps:
  /// the observed information when `function` is a negative log-likelihood.
  public static func hessian(_ function: ([Double]) -> Double, at point: [Double]) -> [[Double]] {
    let count = point.count
    let steps = point.map { Swift.max(abs($0), 1) * 1e-4 }
    func value(_ shifts: [(Int, Double)]) -> Double {
      var moved = point
      for (index, shift) in shifts { moved[index] += shift }
      return function(moved)
    }
    var matrix = Array(repeating: Array(repeating: 0.0, count: count), count: count)
    let center = function(point)
    for i in 0..<count {
      let h = steps[i]
      matrix[i][i] = (value([(i, h)]) - 2 * center + value([(i, -h)])) / (h * h)
      for j in 0..<i {
        let k = steps[j]
        let mixed =
          (value([(i, h), (j, k)]) - value([(i, h), (j, -k)]) - value([(i, -h), (j, k)]) + value([(i, -h), (j, -k)]))
          / (4 * h * k)
        matrix[i][j] = mixed
        matrix[j][i] = mixed
      }
    }
    return matrix
  }

  /// The inverse of a symmetric positive-definite matrix (the covariance of a fit from its information): in
  /// closed form for sizes 1 and 2, by GSL's Cholesky decomposition past them; nil when it is singular or not
  /// positive definite.
  public static func inverse(_ matrix: [[Double]]) -> [[Double]]? {
    switch matrix.count {
    case 1:
      guard matrix[0][0] > 0, matrix[0][0].isFinite else { return nil }
      return [[1 / matrix[0][0]]]
    case 2:
      let (a, b, d) = (matrix[0][0], matrix[0][1], matrix[1][1])
      let determinant = a * d - b * b
      guard a > 0, determinant > 0, determinant.isFinite else { return nil }
      return [[d / determinant, -b / determinant], [-b / determinant, a / determinant]]
    default:
      return choleskyInverse(matrix)
    }
  }

  /// The inverse by GSL's Cholesky decomposition (which fails, with the error handler off, on a matrix that
  /// is not positive definite).
  static func choleskyInverse(_ matrix: [[Double]]) -> [[Double]]? {
    let n = matrix.count
    GSL.configure()
    guard n > 0, matrix.allSatisfy({ $0.count == n && $0.allSatisfy(\.isFinite) }) else { return nil }
    guard let gslMatrix = gsl_matrix_alloc(n, n) else { return nil }
    defer { gsl_matrix_free(gslMatrix) }
    for i in 0..<n { for j in 0..<n { gsl_matrix_set(gslMatrix, i, j, matrix[i][j]) } }
    guard gsl_linalg_cholesky_decomp1(gslMatrix) == GSL_SUCCESS, gsl_linalg_cholesky_invert(gslMatrix) == GSL_SUCCESS
    else { return nil }
    let inverse = (0..<n).map { i in (0..<n).map { j in gsl_matrix_get(gslMatrix, i, j) } }
    return inverse.allSatisfy({ $0.allSatisfy(\.isFinite) }) ? inverse : nil
  }
}

/// The objective, reachable from GSL's C callback through its `params` pointer.
private struct ObjectiveBox {
  let objective: ([Double]) -> Double
  let count: Int
}
