/// A limit on YAML aliases (`*name`), checked on the text before the YAML library reads it.
///
/// Aliases are never expanded into copies, but the YAML library's duplicate-key check hashes mapping keys
/// whole, and a key built from aliases of aliases (an alias bomb) costs exponential time there: a 3 KB file
/// took 10 s (found by fuzzing). With at most 32 aliases the worst case is about 3^11 nodes, a few
/// milliseconds; real scenario files use a handful.
enum YAMLAliasLimit {
  static let maximum = 32

  /// Throws when `text` holds more than ``maximum`` aliases, naming the first one past the limit.
  static func check(_ text: String, file: String) throws(ScenarioError) {
    var count = 0
    var line = 1
    var column = 0
    var previous: Character = "\n"
    var quote: Character?
    var comment = false
    var pendingAlias = false
    for character in text {
      column += 1
      if pendingAlias {
        pendingAlias = false
        if character.isLetter || character.isNumber || character == "_" || character == "-" {
          count += 1
          if count > maximum {
            throw ScenarioError(
              file: file, line: line, column: column - 1, keyPath: "",
              message: "more than \(maximum) YAML aliases (*name): aliases of aliases can expand exponentially "
                + "(an alias bomb), so a scenario file may use at most \(maximum)")
          }
        }
      }
      if character == "\n" || character == "\r\n" {
        line += 1
        column = 0
        comment = false
        previous = "\n"
        continue
      }
      if comment { continue }
      if let open = quote {
        if character == open && !(open == "\"" && previous == "\\") { quote = nil }
        previous = previous == "\\" && character == "\\" ? " " : character
        continue
      }
      let atTokenStart = previous == "\n" || previous == " " || previous == "\t" || "[{,".contains(previous)
      switch character {
      case "#" where atTokenStart: comment = true
      case "'", "\"": if atTokenStart || previous == ":" { quote = character }
      case "*" where atTokenStart: pendingAlias = true
      default: break
      }
      previous = character
    }
  }
}
