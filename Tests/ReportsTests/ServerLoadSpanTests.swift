import ScenarioFiles
import SimulationEngine
import TestSupport
import Testing
import WidgetModel

@testable import Reports

@Suite("server_load.csv: the run's minutes, with ISO-8601 timestamps")
struct ServerLoadSpanTests {
  @Test("calendar dates: known day numbers, round trips, impossible dates refused")
  func calendarDates() throws {
    // Day numbers from Python's datetime: (date - date(1970, 1, 1)).days; years 1 to 9999 round-trip.
    #expect(CalendarDate(iso: "1970-01-01")?.daysSince1970 == 0)
    #expect(CalendarDate(iso: "1969-12-31")?.daysSince1970 == -1)
    #expect(CalendarDate(iso: "2000-02-29")?.daysSince1970 == 11_016)
    #expect(CalendarDate.defaultStart.daysSince1970 == 20_458 && CalendarDate.defaultStart.iso == "2026-01-05")
    for day in stride(from: -719_162, through: 2_932_896, by: 997) {
      let date = CalendarDate(daysSince1970: day)
      #expect(CalendarDate(iso: date.iso) == date, "\(day): \(date.iso)")
    }
    for text in ["2026-02-29", "2100-02-29", "2026-13-01", "2026-04-31", "26-01-05", "2026-1-5", "2026-01-05T00:00"] {
      #expect(CalendarDate(iso: text) == nil, "\(text)")
    }
    #expect(CalendarDate(iso: "2024-02-29") != nil && CalendarDate(iso: "2000-02-29") != nil)
  }

  @Test("one phone on UTC: exactly the run's minutes, timestamps from start_date")
  func singlePhone() throws {
    let yaml = try TestFiles.read(Repository.path("Scenarios/quickstart.yaml")) + "\nstart_date: 2025-12-31\n"
    let configuration = try ScenarioLoader.load(text: yaml, file: "start.yaml").configuration
    #expect(configuration.startDate.iso == "2025-12-31")
    let result = ScenarioRunner.runReplication(configuration, replication: 0)
    let subjects = RunSummary.Subjects(configuration)
    let rows = ServerLoadReport.rows(result, .replication(0, subjects: subjects)).split(separator: "\n")
    #expect(rows.count == configuration.days * 1_440)
    #expect(rows.first?.hasPrefix("0,0,0,00:00,") == true && rows.first?.hasSuffix(",2025-12-31T00:00:00Z") == true)
    #expect(rows.last?.hasPrefix("0,\(configuration.days * 1_440 - 1),\(configuration.days - 1),23:59,") == true)
    #expect(rows.last?.hasSuffix(",2026-01-06T23:59:00Z") == true)
    #expect(rows[1_440].hasSuffix(",2026-01-01T00:00:00Z"))
  }

  @Test("a fleet across time zones: the minutes its offsets can reach, and no request left out")
  func fleetSpan() throws {
    // Offsets -8 h to +2 h: UTC minutes from -2 h (phones 2 h ahead start their day 0 at 22:00 UTC the day
    // before) to the last day's end plus 8 h.
    let configuration = try exampleScenario(
      "fleet-breaking-news", overrides: ["days=2", "replications=1", "fleet.devices=60"])
    let subjects = RunSummary.Subjects(configuration)
    #expect(subjects.utcMinutes == -120..<(2 * 1_440 + 480))
    let result = ScenarioRunner.runReplication(configuration, replication: 0)
    let slots = ServerLoadReport.slots(result.serverLoad, subjects.utcMinutes)
    let used = try #require(result.serverLoad.usedSlots)
    #expect(slots.lowerBound <= used.lowerBound && slots.upperBound >= used.upperBound)
    #expect(slots.count == 2 * 1_440 + 600)
  }

  @Test("start_date must be a real date")
  func badStartDate() throws {
    let yaml = try TestFiles.read(Repository.path("Scenarios/quickstart.yaml")) + "\nstart_date: 2026-02-30\n"
    #expect {
      try ScenarioLoader.load(text: yaml, file: "bad.yaml")
    } throws: { error in
      "\(error)".contains("bad.yaml") && "\(error)".contains("start_date")
        && "\(error)".contains("YYYY-MM-DD")
    }
  }
}
