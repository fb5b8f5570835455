import CommandSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The files one command writes, checked before anything is written against the files it reads and against
/// each other: an output on an input destroys it (`compare B C --junit C/replications.csv`), two outputs on
/// one file lose one (`bench --json F --json-smaller F`).
public enum OutputPaths {
  /// A file as the user named it: what names it (an option, "the candidate") and its path.
  public typealias Named = (what: String, path: String)

  /// Refuses (exit 2) an output naming the same file as an input or as another output. Character devices
  /// (`/dev/null`, `/dev/stdout`) are written into, never replaced, so any number of outputs may name one.
  public static func check(outputs: [Named], inputs: [Named]) throws(CommandFailure) {
    for (index, output) in outputs.enumerated() where !isCharacterDevice(output.path) {
      if let input = inputs.first(where: { same(output.path, $0.path) }) {
        throw .badInput(
          "\(output.what) \(output.path) is \(input.what), which this command reads: write it elsewhere")
      }
      if let other = outputs[..<index].first(where: { same(output.path, $0.path) }) {
        throw .badInput("\(output.what) \(output.path) is also \(other.what): give each output its own file")
      }
    }
  }

  /// The file a command reads for a run given as `path`: its replications.csv when it is a folder.
  public static func replications(_ path: String) -> String {
    TextFile.isDirectory(path) ? "\(path)/replications.csv" : path
  }

  /// Whether two paths name one file: the same file when both exist, else the same place once the folders
  /// that exist are resolved (links, `.`, `..`).
  public static func same(_ first: String, _ second: String) -> Bool {
    var one = stat()
    var other = stat()
    if stat(first, &one) == 0 && stat(second, &other) == 0 {
      return one.st_dev == other.st_dev && one.st_ino == other.st_ino
    }
    return resolved(first) == resolved(second)
  }

  /// `path` with its folder resolved by `realpath` (the file itself may not exist yet); a folder that does not
  /// exist either is made absolute and cleared of `.` and empty components.
  static func resolved(_ path: String) -> String {
    let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    let name = parts.last ?? ""
    let folder = (path.hasPrefix("/") ? "/" : "") + parts.dropLast().joined(separator: "/")
    if let real = realpath(folder.isEmpty ? "." : folder, nil) {
      defer { free(real) }
      return String(cString: real) + "/" + name
    }
    var absolute = path
    if !path.hasPrefix("/"), let current = getcwd(nil, 0) {
      absolute = String(cString: current) + "/" + path
      free(current)
    }
    return "/" + absolute.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
  }

  static func isCharacterDevice(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFCHR
  }
}
