import CGSL

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which GSL generator a ``RandomStream`` uses.
///
/// taus2 draws a uniform faster than mt19937 (`widgetsim bench`'s `generator_uniform` rows give the figures)
/// with 24 bytes of state against 5 KB (gfsr4: 128 KB), which matters with thousands of streams alive;
/// taus2 is a maximally equidistributed combined Tausworthe generator (L'Ecuyer 1996) with period 2^88. It
/// is the default.
public enum RandomGeneratorKind: String, CaseIterable, Sendable {
  case taus2
  case mt19937
  case gfsr4

  var gslType: UnsafePointer<gsl_rng_type> {
    switch self {
    case .taus2: widgetsim_rng_taus2()
    case .mt19937: widgetsim_rng_mt19937()
    case .gfsr4: widgetsim_rng_gfsr4()
    }
  }
}

/// One reproducible stream of random numbers: owns one GSL generator.
///
/// Seeding: the ``StreamSeed`` key is expanded with ``SplitMix64``. For taus2 three outputs fill the whole
/// 96-bit state, so a fleet of millions of streams does not collide; the other generators are seeded with
/// `gsl_rng_set` and the key's low 32 bits (all GSL keeps), which is fine for benchmarks, not for fleets.
///
/// Not `Sendable`: a stream belongs to the one simulation (and thread) that draws from it.
public final class RandomStream {
  @usableFromInline let generator: UnsafeMutablePointer<gsl_rng>
  /// Where this stream's seed came from.
  public let seed: StreamSeed
  public let kind: RandomGeneratorKind

  public init(seed: StreamSeed, kind: RandomGeneratorKind = .taus2) {
    GSL.configure()
    guard let generator = gsl_rng_alloc(kind.gslType) else {
      preconditionFailure("GSL could not allocate a \(kind) generator (out of memory)")
    }
    // The exponential ziggurat reads 32 bits from one output (layer and position).
    precondition(gsl_rng_max(generator) == 0xFFFF_FFFF && gsl_rng_min(generator) == 0, "\(kind) does not give 32 bits")
    self.generator = generator
    self.seed = seed
    self.kind = kind
    var expander = SplitMix64(state: seed.key)
    let words = (expander.next(), expander.next(), expander.next())
    let wroteState =
      kind == .taus2
      && widgetsim_taus2_set_state(
        generator, UInt32(truncatingIfNeeded: words.0 >> 32), UInt32(truncatingIfNeeded: words.1 >> 32),
        UInt32(truncatingIfNeeded: words.2 >> 32)) == 1
    if !wroteState {
      gsl_rng_set(generator, UInt(truncatingIfNeeded: words.0))
    }
  }

  deinit {
    gsl_rng_free(generator)
  }

  /// A uniform draw in [0, 1).
  @inlinable
  public func uniform() -> Double {
    gsl_rng_uniform(generator)
  }

  /// A uniform draw in (0, 1), for logarithms.
  @inlinable
  public func uniformPositive() -> Double {
    gsl_rng_uniform_pos(generator)
  }

  /// A uniform integer in `0..<bound`; `bound` must be in 1...2^32.
  @inlinable
  public func integer(below bound: Int) -> Int {
    precondition(bound > 0 && bound <= 1 << 32, "integer(below: \(bound)) is out of range")
    return Int(gsl_rng_uniform_int(generator, UInt(bound)))
  }

  /// An exponential draw with the given mean: the gap of a Poisson process (see ``BorrowedStream``).
  @inlinable
  public func exponential(mean: Double) -> Double {
    borrowed.exponential(mean: mean)
  }

  /// The generator, borrowed for draws that touch no reference count.
  @inlinable
  public var borrowed: BorrowedStream { BorrowedStream(generator: generator) }

  /// `true` with the given probability.
  @inlinable
  public func bernoulli(_ probability: Double) -> Bool {
    gsl_rng_uniform(generator) < probability
  }

  /// The raw generator, for `gsl_ran_*` calls.
  @inlinable
  public var gslGenerator: UnsafeMutablePointer<gsl_rng> { generator }
}

/// A ``RandomStream``'s generator, borrowed: draws through it touch no reference count, where a stream read
/// from a component's field on every event is retained and released around each call. Valid only while
/// the stream it came from lives: whoever holds one keeps that stream too.
public struct BorrowedStream {
  @usableFromInline let generator: UnsafeMutablePointer<gsl_rng>

  @inlinable
  init(generator: UnsafeMutablePointer<gsl_rng>) {
    self.generator = generator
  }

  /// A uniform draw in [0, 1).
  @inlinable
  public func uniform() -> Double {
    gsl_rng_uniform(generator)
  }

  /// `true` with the given probability.
  @inlinable
  public func bernoulli(_ probability: Double) -> Bool {
    gsl_rng_uniform(generator) < probability
  }

  /// An exponential draw with the given mean: the gap of a Poisson process.
  ///
  /// The exact ziggurat of Marsaglia and Tsang (`widgetsim_exponential_ziggurat` in the CGSL module): the
  /// same law as `gsl_ran_exponential`'s inversion, `-mean * log1p(-u)`, from other outputs of the
  /// generator; about 98% of draws take one output and a table look-up instead of a logarithm.
  @inlinable
  public func exponential(mean: Double) -> Double {
    mean * widgetsim_exponential_ziggurat(generator)
  }

  /// The raw generator, for `gsl_ran_*` calls.
  @inlinable
  public var gslGenerator: UnsafeMutablePointer<gsl_rng> { generator }
}

@available(*, unavailable, message: "a RandomStream belongs to one simulation; make one per thread")
extension RandomStream: Sendable {}
