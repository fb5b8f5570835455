/// Minimal RFC 4180 reading for the files widgetsim itself writes.
public enum CSVLines {
  /// The rows of `text`, each a list of cells (quoted cells may hold commas, quotes and newlines).
  public static func parse(_ text: String) -> [[String]] {
    var rows: [[String]] = []
    var row: [String] = []
    var cell = ""
    var quoted = false
    var iterator = text.makeIterator()
    while let character = iterator.next() {
      if quoted {
        if character == "\"" {
          if let following = iterator.next() {
            if following == "\"" {
              cell.append("\"")
            } else {
              quoted = false
              if following == "," {
                row.append(cell)
                cell = ""
              } else if following == "\n" {
                row.append(cell)
                rows.append(row)
                row = []
                cell = ""
              } else {
                cell.append(following)
              }
            }
          } else {
            quoted = false
          }
        } else {
          cell.append(character)
        }
      } else if character == "\"" {
        quoted = true
      } else if character == "," {
        row.append(cell)
        cell = ""
      } else if character == "\n" {
        row.append(cell)
        rows.append(row)
        row = []
        cell = ""
      } else {
        cell.append(character)
      }
    }
    if !cell.isEmpty || !row.isEmpty {
      row.append(cell)
      rows.append(row)
    }
    return rows
  }
}
