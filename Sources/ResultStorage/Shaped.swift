/// An accumulator that is not one collection (a tally of several arrays, a ledger): its sizes, which one read
/// from a file must share with the one the scenario allocates.
public protocol Shaped {
  var shape: [Int] { get }
}
