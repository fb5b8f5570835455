/// Suggests the closest known name for a misspelt one, by Levenshtein edit distance.
public enum DidYouMean {
  /// The candidate closest to `word`, if it is within a third of the word's length (at least 1, at most 3).
  public static func suggestion(for word: String, among candidates: [String]) -> String? {
    let limit = Swift.max(1, Swift.min(3, word.count / 3))
    var best: (name: String, distance: Int)?
    for candidate in candidates {
      let distance = editDistance(word.lowercased(), candidate.lowercased())
      if distance <= limit && distance < (best?.distance ?? Int.max) {
        best = (candidate, distance)
      }
    }
    return best?.name
  }

  /// " (did you mean 'x'?)" or "".
  static func hint(for word: String, among candidates: [String]) -> String {
    suggestion(for: word, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
  }

  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = Array(repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, substitution)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
