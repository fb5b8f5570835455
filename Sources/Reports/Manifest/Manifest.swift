import Results
import SimulationEngine
import WidgetModel

/// `manifest.json`: what produced a run's reports. Everything in it but `wall_time_seconds` is the same for
/// the same scenario, overrides, seed and version.
public enum Manifest {
  static func json(
    configuration: ScenarioConfiguration, eventsHandled events: UInt64, fingerprints: [ReplicationFingerprint],
    metadata: RunMetadata, complete: Bool = true, installed: [(widget: String, devices: Double, phones: Double)] = []
  ) -> String {
    let fields: [(String, String)] = [
      ("widgetsim_version", quoted(metadata.widgetsimVersion)),
      ("gsl_version", quoted(gslVersion)),
      ("scenario_name", quoted(configuration.name)),
      ("scenario_file", quoted(metadata.scenarioFile)),
      ("scenario_fnv1a64", quoted(hexadecimal(fnv1a64(metadata.scenarioText)))),
      ("overrides", "[" + metadata.overrides.map(quoted).joined(separator: ", ") + "]"),
      ("seed", "\(configuration.seed)"),
      ("days", "\(configuration.days)"),
      ("replications", "\(configuration.replications)"),
      ("replications_completed", "\(fingerprints.count)"),
      ("complete", "\(complete)"),
      ("widget_instances", "\(configuration.instances.count)"),
      ("devices", "\(configuration.fleet.devices)"),
      ("represents", CSVFormat.number(configuration.fleet.represents)),
      ("assumptions", quoted(FigureAssumptions.line(configuration))),
      (
        "installed",
        "{"
          + installed.map {
            "\(quoted($0.widget)): {\"devices\": \(CSVFormat.number($0.devices)), \"phones\": "
              + "\(CSVFormat.number($0.phones))}"
          }.joined(separator: ", ") + "}"
      ),
      ("events_handled", "\(events)"),
      ("trajectory_fingerprint", quoted(hexadecimal(combined(fingerprints)))),
      ("trajectory_fingerprints", "[" + fingerprints.map { quoted($0.hexadecimal) }.joined(separator: ", ") + "]"),
      ("wall_time_seconds", CSVFormat.number(metadata.wallTimeSeconds, decimals: 3)),
      ("warnings", "[" + metadata.warnings.map(quoted).joined(separator: ", ") + "]"),
      ("reports", "[" + RunReportWriter.files.dropLast().map(quoted).joined(separator: ", ") + "]"),
    ]
    return "{\n" + fields.map { "  \(quoted($0.0)): \($0.1)" }.joined(separator: ",\n") + "\n}\n"
  }

  /// The run's trajectory fingerprint: FNV-1a over the replications' fingerprints, in order.
  static func combined(_ fingerprints: [ReplicationFingerprint]) -> UInt64 {
    fnv1a64(fingerprints.map(\.hexadecimal).joined(separator: ","))
  }

  /// 64-bit FNV-1a of the UTF-8 bytes: identifies a scenario text (not a cryptographic hash).
  public static func fnv1a64(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in text.utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }
    return hash
  }

  public static func hexadecimal(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  static func quoted(_ text: String) -> String { JSONValue.quoted(text) }
}
