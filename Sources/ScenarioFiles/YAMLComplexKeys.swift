/// Complex YAML keys (a mapping or sequence used as a key: `? [a, b]`, `{[a]: 1}`, `[a]: 1`), refused on the
/// text before the YAML library reads it.
///
/// No scenario key is ever a collection, and the YAML library's duplicate-key check hashes such keys whole:
/// nested ones cost it minutes (a 1 MB file: 56 s). Like ``YAMLAliasLimit``, this scan is linear in the text.
enum YAMLComplexKeys {
  /// Throws at the first complex key in `text`: an explicit key (`?` then a space), or a flow sequence or
  /// mapping followed by `:` and a space (or the end of the line).
  static func check(_ text: String, file: String) throws(ScenarioError) {
    var scanner = Scanner(file: file)
    for character in text { try scanner.read(character) }
    if let at = scanner.question ?? scanner.colon { throw scanner.refuse(at) }
  }

  /// What the scan knows between one character and the next: where it is, whether inside a quote or a
  /// comment, and a key it has seen begin whose next character decides whether it is complex.
  private struct Scanner {
    let file: String
    var line = 1
    var column = 0
    var previous: Character = "\n"
    var quote: Character?
    var comment = false
    /// Just after `]` or `}` (and the spaces after it), outside quotes: where the collection ended.
    var closed: (line: Int, column: Int)?
    /// A `:` right after such a collection: a key if a space, a line break or a flow separator follows.
    var colon: (line: Int, column: Int)?
    /// A `?` where a node starts: an explicit key if a space or a line break follows.
    var question: (line: Int, column: Int)?
    /// Whether the line so far holds only indentation and sequence dashes, and its last non-blank character:
    /// a node starts there, or after `{`, `[` or `,` (inside plain text, ` ? ` is just text).
    var onlyIndentation = true
    var lastNonBlank: Character = "\n"

    init(file: String) {
      self.file = file
    }

    func refuse(_ at: (line: Int, column: Int)) -> ScenarioError {
      ScenarioError(
        file: file, line: at.line, column: at.column, keyPath: "",
        message: "a complex YAML key (a list or mapping used as a key): scenario keys are plain names")
    }

    /// Takes the next character, throwing when it completes a complex key.
    mutating func read(_ character: Character) throws(ScenarioError) {
      column += 1
      let isBreak = character == "\n" || character == "\r\n"
      let separates = isBreak || character == " " || character == "\t"
      if let at = question {
        question = nil
        if separates { throw refuse(at) }
      }
      if let at = colon {
        colon = nil
        if separates || character == "," || character == "}" || character == "]" { throw refuse(at) }
      }
      if isBreak {
        startLine()
        return
      }
      if comment { return }
      if let open = quote {
        if character == open && !(open == "\"" && previous == "\\") { quote = nil }
        previous = previous == "\\" && character == "\\" ? " " : character
        return
      }
      if let at = closed {
        if character == " " || character == "\t" { return }
        closed = nil
        if character == ":" {
          colon = at
          previous = character
          return
        }
      }
      readOutsideQuotes(character)
    }

    /// A line break: a comment, a collection's end and the line's indentation end with the line.
    private mutating func startLine() {
      line += 1
      column = 0
      comment = false
      previous = "\n"
      closed = nil
      onlyIndentation = true
      lastNonBlank = "\n"
    }

    /// A character outside quotes and comments, not a line break: it may open a comment or a quote, be a `?`
    /// where a node starts, or close a collection.
    private mutating func readOutsideQuotes(_ character: Character) {
      let atTokenStart = previous == "\n" || previous == " " || previous == "\t" || "[{,".contains(previous)
      let atNodeStart = atTokenStart && (onlyIndentation || "[{,".contains(lastNonBlank))
      switch character {
      case "#" where atTokenStart: comment = true
      case "'", "\"": if atTokenStart || previous == ":" { quote = character }
      case "?" where atNodeStart: question = (line, column)
      case "]", "}": closed = (line, column)
      default: break
      }
      if character != " " && character != "\t" {
        if character != "-" { onlyIndentation = false }
        lastNonBlank = character
      }
      previous = character
    }
  }
}
