import Testing
import WidgetModel

@testable import ScenarioFiles

/// Inputs that load but make no sense are refused with their place: a fleet standing for fewer real phones
/// than it simulates, whether the file, `--devices` or `--set` says so.
@Suite("Senseless inputs")
struct SenselessInputTests {
  /// A fleet scenario; `fleet` is the body of its `fleet` section (from line 7).
  static func text(fleet: String) -> String {
    """
    name: t
    widgets:
      - id: w
        kind: K
        timeline: {policy: after, after: 30m}
    fleet:
    \(fleet)
    """
  }

  static func load(fleet: String, _ arguments: ScenarioArguments = ScenarioArguments()) throws(ScenarioError)
    -> ScenarioConfiguration
  {
    try ScenarioLoader.load(text: text(fleet: fleet), file: "t.yaml", overrides: try arguments.overrides())
      .configuration
  }

  static func error(fleet: String, _ arguments: ScenarioArguments = ScenarioArguments()) -> ScenarioError? {
    do {
      _ = try load(fleet: fleet, arguments)
      return nil
    } catch {
      return error
    }
  }

  @Test("represents below devices in the file is refused at represents, with its line and column")
  func representsBelowDevicesInFile() throws {
    let error = try #require(Self.error(fleet: "  devices: 2000\n  represents: 100"))
    #expect(error.file == "t.yaml" && error.line == 8 && error.column == 15 && error.keyPath == "fleet.represents")
    #expect(error.override == nil)
    #expect(
      error.description.hasPrefix(
        "t.yaml:8:15: fleet.represents: 100 real phones, fewer than the 2000 devices simulated (fleet.devices)"),
      "\(error)")
    #expect(error.message.contains("at least 2000") && error.message.contains("at most 100 devices"))
    // As many real phones as simulated ones, or more, is a sample (or the whole fleet): accepted.
    #expect(try Self.load(fleet: "  devices: 100\n  represents: 100").fleet.scale == 1)
    #expect(try Self.load(fleet: "  devices: 100\n  represents: 2000").fleet.scale == 20)
  }

  @Test("--devices or --set fleet.devices past represents is refused, naming the option and the fix")
  func devicesOptionPastRepresents() throws {
    let fleet = "  devices: 100\n  represents: 2000"
    let shorthand = try #require(Self.error(fleet: fleet, ScenarioArguments(devices: 5000)))
    #expect(shorthand.line == 8 && shorthand.column == 15 && shorthand.keyPath == "fleet.represents")
    #expect(shorthand.description.hasPrefix("t.yaml:8:15: fleet.represents: 2000 real phones, fewer than the 5000"))
    #expect(
      shorthand.message.contains(
        "--devices 5000 set fleet.devices to 5000: also give the real fleet's size, e.g. "
          + "--set fleet.represents=5000 (or more), or simulate at most 2000 devices"), "\(shorthand)")
    let set = try #require(Self.error(fleet: fleet, ScenarioArguments(set: ["fleet.devices=3000"])))
    #expect(set.message.contains("--set fleet.devices=3000 set fleet.devices to 3000"), "\(set)")
    // Both given on the command line: represents' option is the place, the devices' option is named.
    let both = try #require(
      Self.error(fleet: "  devices: 10", ScenarioArguments(set: ["fleet.represents=20"], devices: 50)))
    #expect(both.description.hasPrefix("--set fleet.represents=20: fleet.represents: 20 real phones"), "\(both)")
    #expect(both.message.contains("--devices 50 set fleet.devices to 50"))
    // The fix the message gives loads.
    let fixed = try Self.load(fleet: fleet, ScenarioArguments(set: ["fleet.represents=5000"], devices: 5000))
    #expect(fixed.fleet.devices == 5000 && fixed.fleet.represents == 5000)
  }

  @Test("without represents, --devices keeps setting both, as before")
  func representsFollowsDevices() throws {
    let loaded = try Self.load(fleet: "  devices: 10", ScenarioArguments(devices: 5000))
    #expect(loaded.fleet.devices == 5000 && loaded.fleet.represents == 5000)
    let fewer = try Self.load(fleet: "  devices: 100\n  represents: 2000", ScenarioArguments(devices: 50))
    #expect(fewer.fleet.devices == 50 && fewer.fleet.represents == 2000)
  }
}
