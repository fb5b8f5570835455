import CommandSupport
import Reports

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a comparison hands to the CI system it runs in, besides the console and compare.csv: a Markdown step
/// summary (GitHub Actions' `GITHUB_STEP_SUMMARY`), error annotations on the scenario's lines (workflow
/// commands, when running under GitHub Actions), and a JUnit XML file (`--junit`), which Jenkins, GitLab,
/// Buildkite and Xcode Cloud read.
public struct CIReporting: Sendable {
  /// The file to append the Markdown summary to.
  public var stepSummary: String?
  /// Whether to print `::error` workflow commands for failed gates.
  public var annotates: Bool
  /// Where to write the JUnit XML report.
  public var junit: String?
  /// The scenario file the candidate ran, and the line of each report subject in it (a widget's entry).
  public var scenarioFile: String?
  public var lineOfSubject: @Sendable (String) -> Int?

  public init(
    stepSummary: String? = nil, annotates: Bool = false, junit: String? = nil, scenarioFile: String? = nil,
    lineOfSubject: @escaping @Sendable (String) -> Int? = { _ in nil }
  ) {
    self.stepSummary = stepSummary
    self.annotates = annotates
    self.junit = junit
    self.scenarioFile = scenarioFile
    self.lineOfSubject = lineOfSubject
  }

  /// GitHub Actions as its runners set it up: `GITHUB_STEP_SUMMARY` names the summary file, and
  /// `GITHUB_ACTIONS=true` turns on annotations.
  public static func fromEnvironment(_ environment: [String: String], junit: String?) -> CIReporting {
    let summary = environment["GITHUB_STEP_SUMMARY"].flatMap { $0.isEmpty ? nil : $0 }
    return CIReporting(stepSummary: summary, annotates: environment["GITHUB_ACTIONS"] == "true", junit: junit)
  }

  /// ``fromEnvironment(_:junit:)`` of this process's environment.
  public static func fromProcessEnvironment(junit: String?) -> CIReporting {
    var environment: [String: String] = [:]
    for name in ["GITHUB_STEP_SUMMARY", "GITHUB_ACTIONS"] {
      if let value = getenv(name) { environment[name] = String(cString: value) }
    }
    return fromEnvironment(environment, junit: junit)
  }

  /// The files these outputs write, for ``OutputPaths/check(outputs:inputs:)``.
  public var outputs: [OutputPaths.Named] {
    [junit.map { ("--junit", $0) }, stepSummary.map { ("GITHUB_STEP_SUMMARY", $0) }].compactMap { $0 }
  }

  /// Writes the JUnit file and appends the step summary; fails (exit 1, the run failed) when one cannot be
  /// written.
  func write(_ comparison: Comparison, title: String) throws(CommandFailure) {
    do {
      if let junit { try AtomicFile.write(JUnitReport.xml(comparison, suite: title), to: junit) }
      if let stepSummary { try AppendFile.append(StepSummary.markdown(comparison, title: title), to: stepSummary) }
    } catch {
      throw .failed("\(error)")
    }
  }

  /// The annotation lines to print (none unless ``annotates``).
  func annotations(_ comparison: Comparison) -> [String] {
    guard annotates else { return [] }
    return comparison.failures.map { row in
      WorkflowCommand.error(
        file: scenarioFile, line: lineOfSubject(row.key.widget),
        title: "widgetsim gate \(row.gate?.description ?? row.key.metric) failed",
        message: ComparisonReport.failureText(row))
    }
  }
}

/// GitHub Actions workflow commands (`::error file=F,line=N,title=T::message`), escaped as the runner
/// expects: `%`, CR and LF in the message; also `:` and `,` in properties.
public enum WorkflowCommand {
  public static func error(file: String?, line: Int?, title: String, message: String) -> String {
    var properties: [String] = []
    if let file {
      properties.append("file=\(escapeProperty(file))")
      if let line { properties.append("line=\(line)") }
    }
    properties.append("title=\(escapeProperty(title))")
    return "::error \(properties.joined(separator: ","))::\(escapeData(message))"
  }

  static func escapeData(_ text: String) -> String {
    text.replacing("%", with: "%25").replacing("\r", with: "%0D").replacing("\n", with: "%0A")
  }

  static func escapeProperty(_ text: String) -> String {
    escapeData(text).replacing(":", with: "%3A").replacing(",", with: "%2C")
  }
}
