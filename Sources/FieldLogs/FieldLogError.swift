/// A field log or server log that cannot be read: the file, the 1-based line (nil for the whole file), and
/// what was expected. A bad input: `calibrate` and `check` exit with status 2.
public struct FieldLogError: Error, CustomStringConvertible, Sendable {
  public let file: String
  public let line: Int?
  public let message: String

  public init(file: String, line: Int?, _ message: String) {
    self.file = file
    self.line = line
    self.message = message
  }

  public var description: String { line.map { "\(file):\($0): \(message)" } ?? "\(file): \(message)" }
}
