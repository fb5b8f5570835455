/// Suggests the closest known names for a misspelt one, by edit distance (a swap of neighbours is one edit). Scenario keys, sweep
/// objectives and comparison gates share it, so every error that names an unknown word suggests alike.
public enum DidYouMean {
  /// The candidate closest to `word`, if it is within a third of the word's length (at least 1, at most 3).
  public static func suggestion(for word: String, among candidates: [String]) -> String? {
    closest(to: word, among: candidates, atMost: 1).first
  }

  /// The candidates nearest to `word` (at most `count`, in the order given): those at the least edit distance
  /// within a third of the word's length (at least 1, at most 3); failing any, those that hold the word or
  /// that the word holds, ignoring case (`p95` finds `staleness_p95`); failing those, the names that share
  /// the most of the word's parts of three letters or more between underscores (`energy_phone_day` finds
  /// `phone_mwh_per_day`). Empty when nothing is near.
  public static func nearest(to word: String, among candidates: [String], atMost count: Int = 3) -> [String] {
    let near = closest(to: word, among: candidates, atMost: count)
    let lowered = word.lowercased()
    if !near.isEmpty || lowered.isEmpty { return near }
    let holding = candidates.filter {
      let name = $0.lowercased()
      return name.contains(lowered) || lowered.contains(name)
    }
    if !holding.isEmpty { return Array(holding.prefix(count)) }
    return sharingParts(with: lowered, among: candidates, atMost: count)
  }

  /// The candidates sharing the most parts (between underscores, three letters or more) with `word`.
  static func sharingParts(with word: String, among candidates: [String], atMost count: Int) -> [String] {
    let parts = Set(word.split(separator: "_").filter { $0.count >= 3 })
    guard !parts.isEmpty else { return [] }
    let shared = candidates.map { candidate in
      Set(candidate.lowercased().split(separator: "_")).intersection(parts).count
    }
    guard let most = shared.max(), most > 0 else { return [] }
    return Array(zip(candidates, shared).filter { $0.1 == most }.map(\.0).prefix(count))
  }

  /// The first `count` candidates at the least edit distance, if it is within the limit.
  static func closest(to word: String, among candidates: [String], atMost count: Int) -> [String] {
    let limit = Swift.max(1, Swift.min(3, word.count / 3))
    let lowered = word.lowercased()
    var best = Int.max
    var found: [String] = []
    for candidate in candidates {
      let distance = editDistance(lowered, candidate.lowercased())
      guard distance <= limit && distance <= best else { continue }
      if distance < best {
        best = distance
        found = []
      }
      if found.count < count { found.append(candidate) }
    }
    return found
  }

  /// " (did you mean 'x'?)" or "".
  public static func hint(for word: String, among candidates: [String]) -> String {
    suggestion(for: word, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
  }

  /// "'a'", "'a' or 'b'", "'a', 'b' or 'c'".
  public static func alternatives(_ names: [String]) -> String {
    let quoted = names.map { "'\($0)'" }
    guard let last = quoted.last, quoted.count > 1 else { return quoted.first ?? "" }
    return quoted.dropLast().joined(separator: ", ") + " or " + last
  }

  /// Edits between `a` and `b`: insertions, deletions, substitutions and swaps of two neighbouring
  /// characters, each one edit (a swap is the commonest slip: `aling` for `align`).
  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var beforePrevious = Array(repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = Array(repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, substitution)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = Swift.min(current[j], beforePrevious[j - 2] + 1)
        }
      }
      (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    return previous[b.count]
  }
}
