import TestSupport
import Testing

/// Energy in one unit everywhere a person reads it: mWh/day, as `run`'s headline gives it.
@Suite("report.html's energy in mWh")
struct EnergyUnitsReportTests {
  @Test("a run's energy-by-hour chart and its caption are in mWh, not J")
  func runReport() throws {
    let (directory, run) = try ReportSummaryTablesTests.quickstart(replications: 2, days: 1)
    #expect(run.code == 0)
    let page = try TestFiles.read("\(directory)/report.html")
    #expect(page.contains("energy per device per day (mWh)"))
    #expect(!page.contains("energy per device per day (J)"))
    #expect(page.contains(" mWh a day. The device") && page.contains(" baseline and usage ("))
    #expect(!page.contains(" J a day"))
  }
}
