/// Text made safe inside an HTML or XML element or a quoted attribute: the five markup characters as
/// entities; for XML also line breaks and tabs as character references (attributes keep them), and the
/// control characters XML 1.0 does not allow at all, even escaped, as `?`.
public enum MarkupText {
  public static func escaped(_ text: String, xml: Bool = false) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&#39;"
      case "\n" where xml: result += "&#10;"
      case "\t" where xml, "\r" where xml: result += "&#\(scalar.value);"
      case _ where xml && (scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF): result += "?"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
