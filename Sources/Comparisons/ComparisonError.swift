/// Bad input to a comparison (unreadable or mismatched files, unknown metrics, bad gates): exit code 2.
public struct ComparisonError: Error, CustomStringConvertible, Equatable {
  public let message: String

  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}
