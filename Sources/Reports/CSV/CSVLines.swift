/// Minimal RFC 4180 reading for the files widgetsim itself writes.
public enum CSVLines {
  /// The rows of `text`, each a list of cells (quoted cells may hold commas, quotes and newlines). Lines
  /// end with LF or CRLF.
  public static func parse(_ text: String) -> [[String]] {
    var rows: [[String]] = []
    var row: [String] = []
    var cell = String.UnicodeScalarView()
    var quoted = false
    let scalars = Array(text.unicodeScalars)
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      index += 1
      if quoted {
        if scalar != "\"" {
          cell.append(scalar)
        } else if index < scalars.count && scalars[index] == "\"" {
          cell.append(scalar)  // "" inside quotes is one quote
          index += 1
        } else {
          quoted = false  // what follows the closing quote is read as unquoted text
        }
        continue
      }
      switch scalar {
      case "\"": quoted = true
      case ",":
        row.append(String(cell))
        cell = String.UnicodeScalarView()
      case "\r" where index < scalars.count && scalars[index] == "\n":
        continue  // the LF ends the line
      case "\n":
        row.append(String(cell))
        rows.append(row)
        row = []
        cell = String.UnicodeScalarView()
      default: cell.append(scalar)
      }
    }
    if !cell.isEmpty || !row.isEmpty {
      row.append(String(cell))
      rows.append(row)
    }
    return rows
  }
}
