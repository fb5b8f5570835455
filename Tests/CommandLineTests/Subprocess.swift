import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `widgetsim` executable built beside the test bundle, run as a child process.
enum Subprocess {
  /// `.build/<triple>/<configuration>/widgetsim`: the test runner lives in the same folder.
  static let executable: String = {
    var buffer = [CChar](repeating: 0, count: 4_096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    let runner = count > 0 ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    var parts = runner.split(separator: "/", omittingEmptySubsequences: false)
    while let last = parts.last, !last.hasSuffix(".xctest") && !last.hasPrefix("widgetsimPackageTests") {
      parts.removeLast()
    }
    if !parts.isEmpty { parts.removeLast() }
    return parts.joined(separator: "/") + "/widgetsim"
  }()

  /// Starts `widgetsim arguments...` with standard output and error going to `log`, and `environment` added to
  /// this process's; returns its pid.
  static func start(_ arguments: [String], log: String, environment: [String: String] = [:]) -> pid_t {
    start(program: executable, arguments, output: log, errors: nil, environment: environment)
  }

  /// Starts `program arguments...` with standard output to `output` and standard error to `errors` (or to
  /// `output` too when nil), and `environment` added to (or replacing in) this process's; returns its pid.
  static func start(
    program: String, _ arguments: [String], output: String, errors: String?, environment: [String: String] = [:]
  ) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    if let errors {
      posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    } else {
      posix_spawn_file_actions_adddup2(&actions, 1, 2)
    }
    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var inherited: [String] = []
    var entry = environ
    while let variable = entry.pointee {
      let text = String(cString: variable)
      let name = String(text.prefix { $0 != "=" })
      if environment[name] == nil { inherited.append(text) }
      entry += 1
    }
    let envp =
      (inherited + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).map { strdup($0) }
      + [nil]
    defer { for pointer in envp { free(pointer) } }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, program, &actions, nil, argv, envp)
    precondition(status == 0, "cannot start \(program): \(String(cString: strerror(status)))")
    return pid
  }

  /// Waits for `pid`: its exit code, or 128 + the signal that ended it.
  static func wait(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let signal = status & 0x7f
    return signal == 0 ? (status >> 8) & 0xff : 128 + signal
  }

  /// Runs `program arguments...` (by default `widgetsim`) to the end, with `environment` added: its exit code
  /// and what it printed (standard output and error together).
  static func run(program: String = executable, _ arguments: [String], environment: [String: String] = [:]) throws
    -> (code: Int32, output: String)
  {
    let log = TestFiles.temporaryDirectory() + "/output.txt"
    let code = wait(start(program: program, arguments, output: log, errors: nil, environment: environment))
    return (code, try TestFiles.read(log))
  }

  /// Seconds since an arbitrary start, for timing child processes.
  static func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// Sleeps for `seconds`.
  static func sleep(_ seconds: Double) {
    var time = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
    var remaining = timespec()
    while nanosleep(&time, &remaining) != 0 && errno == EINTR { time = remaining }
  }
}
