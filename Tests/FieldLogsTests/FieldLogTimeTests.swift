import FieldLogs
import Testing

@Suite struct FieldLogTimeTests {
  @Test func readsWhatItWrites() throws {
    let time = try #require(FieldLogTime(text: "2026-01-05T08:30:12.345+01:30"))
    #expect(time.offsetSeconds == 5_400)
    #expect(time.text == "2026-01-05T08:30:12.345+01:30")
    let expected: Double = 30_612.345
    #expect(time.localSecondOfDay == expected)
    let utc = try #require(FieldLogTime(text: "2026-01-05T07:00:12.345Z"))
    #expect(utc.utcMicroseconds == time.utcMicroseconds)
  }

  @Test func negativeOffsetsCrossMidnight() throws {
    let time = try #require(FieldLogTime(text: "2026-01-05T23:00-05:00"))
    #expect(time.text == "2026-01-05T23:00:00.000-05:00")
    let utc = try #require(FieldLogTime(text: "2026-01-06T04:00:00Z"))
    #expect(time.utcMicroseconds == utc.utcMicroseconds)
    #expect(time.localDay + 1 == utc.localDay)
  }

  @Test(arguments: [
    "2026-01-05", "2026-01-05T08:30", "2026-02-30T08:30Z", "2026-01-05T24:00Z", "2026-01-05T08:30:12.Z",
    "2026-01-05T08:30+1:00", "2026-01-05T08:30Z trailing", "",
  ])
  func refusesWhatIsNotATime(_ text: String) {
    #expect(FieldLogTime(text: text) == nil)
  }
}
