import PropertyBased
import Testing

/// Runs a property over `cases` inputs drawn from `generator` with a fixed seed, so the test is the same
/// on every run. (PropertyBased's own `propertyCheck` seeds from the system, and its `.fixedSeed` trait
/// is meant for reproducing a failure, not for committing.) A failure names the case to replay.
func deterministicProperty<Value, Shrinks>(
  cases: Int, seed: UInt64, input generator: Generator<Value, Shrinks>,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: (Value) throws -> Bool
) rethrows {
  var rng = Xoshiro(seed: (seed, 0x9E37_79B9_7F4A_7C15, seed ^ 0xD1B5_4A32_D192_ED03, 1))
  for index in 0..<cases {
    let value = generator.run(using: &rng)
    let holds = try body(value)
    #expect(holds, "property failed on case \(index) (seed \(seed)): \(value)", sourceLocation: sourceLocation)
    if !holds { return }
  }
}

/// `#expect` for conditions that read a non-copyable value (`EventSet`, `Scheduler`): the macro cannot
/// capture those, so the condition is evaluated first and only its result is checked.
func expectTrue(
  _ condition: Bool, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(condition, comment, sourceLocation: sourceLocation)
}
