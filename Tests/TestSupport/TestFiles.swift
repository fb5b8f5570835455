import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The repository's files, located from this source file's path so tests run from any directory.
public enum Repository {
  public static let root: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)  // Tests/TestSupport/TestFiles.swift
    return parts.joined(separator: "/")
  }()

  /// The absolute path of `relative` inside the repository.
  public static func path(_ relative: String) -> String { "\(root)/\(relative)" }
}

/// Small file helpers for tests, without Foundation.
public enum TestFiles {
  public struct FileError: Error {
    public let path: String
  }

  /// A file's contents as text.
  public static func read(_ path: String) throws -> String {
    guard let handle = fopen(path, "rb") else { throw FileError(path: path) }
    defer { fclose(handle) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = fread(&buffer, 1, buffer.count, handle)
      bytes.append(contentsOf: buffer[0..<count])
      if count < buffer.count { break }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Writes `text` to `path`, replacing what was there.
  public static func write(_ text: String, to path: String) throws {
    try write(bytes: Array(text.utf8), to: path)
  }

  /// Writes `bytes` to `path`, replacing what was there.
  public static func write(bytes: [UInt8], to path: String) throws {
    guard let handle = fopen(path, "wb") else { throw FileError(path: path) }
    defer { fclose(handle) }
    guard fwrite(bytes, 1, bytes.count, handle) == bytes.count else { throw FileError(path: path) }
  }

  /// The names of a folder's entries, sorted.
  public static func list(_ path: String) throws -> [String] {
    guard let directory = opendir(path) else { throw FileError(path: path) }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
  }

  /// Writes `files` (a path under `root`: its text), making the folders they need.
  public static func write(_ files: [String: String], under root: String) throws {
    for (path, contents) in files {
      let folders = path.split(separator: "/").dropLast()
      for depth in folders.indices { mkdir("\(root)/" + folders[...depth].joined(separator: "/"), 0o755) }
      try write(contents, to: "\(root)/\(path)")
    }
  }

  /// Copies the folder `source` (its files, byte for byte, and its folders) to the new folder `destination`.
  public static func copyFolder(_ source: String, to destination: String) throws {
    guard mkdir(destination, 0o755) == 0 else { throw FileError(path: destination) }
    for name in try list(source) {
      var status = stat()
      guard stat("\(source)/\(name)", &status) == 0 else { throw FileError(path: "\(source)/\(name)") }
      if status.st_mode & S_IFMT == S_IFDIR {
        try copyFolder("\(source)/\(name)", to: "\(destination)/\(name)")
        continue
      }
      guard let input = fopen("\(source)/\(name)", "rb") else { throw FileError(path: "\(source)/\(name)") }
      defer { fclose(input) }
      guard let output = fopen("\(destination)/\(name)", "wb") else { throw FileError(path: "\(destination)/\(name)") }
      defer { fclose(output) }
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while true {
        let count = fread(&buffer, 1, buffer.count, input)
        guard fwrite(buffer, 1, count, output) == count else { throw FileError(path: "\(destination)/\(name)") }
        if count < buffer.count { break }
      }
    }
  }

  /// The names (without `.yaml`) of the example scenarios under Scenarios/, sweeps left out.
  public static func exampleScenarios() -> [String] {
    let names = (try? list(Repository.path("Scenarios"))) ?? []
    return names.filter { $0.hasSuffix(".yaml") && !$0.hasPrefix("sweep-") }.map { String($0.dropLast(5)) }
  }

  /// A new empty folder under /tmp, removed with everything in it when the test process exits.
  public static func temporaryDirectory() -> String {
    var template = Array("/tmp/widgetsim-test-XXXXXX".utf8CString)
    let path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    TemporaryFolders.created.withLock { folders in
      if folders.isEmpty { atexit { TemporaryFolders.removeAll() } }
      folders.append(path)
    }
    return path
  }
}

/// The folders ``TestFiles/temporaryDirectory()`` made, removed at exit (a test may still read its folder
/// until the last test ends, so none is removed earlier).
enum TemporaryFolders {
  static let created = Mutex<[String]>([])

  static func removeAll() {
    for folder in created.withLock({ $0 }) { removeTree(folder) }
  }

  /// Removes `path` and, for a folder (not a link to one), everything in it first.
  static func removeTree(_ path: String) {
    var status = stat()
    guard lstat(path, &status) == 0 else { return }
    if status.st_mode & S_IFMT == S_IFDIR {
      for name in (try? TestFiles.list(path)) ?? [] { removeTree("\(path)/\(name)") }
    }
    remove(path)
  }
}

/// A thread-safe counter for tests.
public final class SynchronizedInt: Sendable {
  private let storage = Mutex<Int>(0)
  public init() {}
  public func load() -> Int { storage.withLock { $0 } }
  public func add(_ amount: Int) { storage.withLock { $0 += amount } }
}

/// Text appended from any thread, for tests that collect what a command printed.
public final class SynchronizedText: Sendable {
  private let storage = Mutex<String>("")
  public init() {}
  public var text: String { storage.withLock { $0 } }
  public func append(_ text: String) { storage.withLock { $0 += text } }
}

/// The worked examples in the documentation, as the tests that reproduce them read them.
public enum DocumentedExample {
  public struct Missing: Error {
    public let marker: String
  }

  /// The fenced block right after `<!-- NAME -->` in `file` (a path from the repository's root).
  public static func block(_ name: String, in file: String) throws -> String {
    let readme = try TestFiles.read(Repository.path(file))
    let marker = "<!-- \(name) -->\n```\n"
    guard let start = readme.firstRange(of: marker)?.upperBound,
      let end = readme[start...].firstRange(of: "```\n")?.lowerBound
    else { throw Missing(marker: marker) }
    return String(readme[start..<end])
  }
}
