import Reports
import Testing

@testable import Sweeps

/// The designs on cost against staleness: the front a review chooses from, and the console's short table.
@Suite("Pareto front of cost against staleness")
struct SweepParetoTests {
  static func rows(_ figures: [(cost: Double, staleness: Double)]) -> [SweepSummaryRow] {
    figures.enumerated().flatMap { point, figure in
      [
        SweepSummaryRow(
          point: point, metric: "phone_mwh_per_day", widget: "device", mean: figure.cost,
          interval: (figure.cost * 0.9, figure.cost * 1.1), unit: "mWh/day"),
        SweepSummaryRow(
          point: point, metric: "staleness_mean", widget: "headlines", mean: figure.staleness,
          interval: (figure.staleness * 0.9, figure.staleness * 1.1), unit: "s"),
      ]
    }
  }

  @Test("a point another beats on both figures is off the front; the table is cheapest first, the front starred")
  func front() {
    // Point 2 is dearer and staler than point 1; the others each trade one figure for the other.
    let rows = Self.rows([(4, 10), (2, 50), (3, 60), (1, 100)])
    let points: [SweepPointRow] = (0..<4).map { ($0, "", ["v\($0)"]) }
    let entries = SweepPareto.entries(rows: rows, points: points, subject: "headlines")
    #expect(entries.map(\.point.index) == [3, 1, 2, 0])
    #expect(entries.map(\.onFront) == [true, true, false, true])
    let lines = SweepPareto.lines(rows: rows, points: points, subject: "headlines") { "point \($0.index)" }
    #expect(lines.count == 5)
    #expect(lines[0].hasPrefix("cost against staleness (* on the Pareto front"))
    #expect(lines[1] == "  * point 3: 1.00 [0.90, 1.10] mWh/day, staleness mean of headlines 100 [90, 110] s")
    #expect(lines[3] == "    point 2: 3.00 [2.70, 3.30] mWh/day, staleness mean of headlines 60 [54, 66] s")
    // Equal designs are both on it; one point alone makes no table.
    #expect(ParetoFront.members([(1, 1), (1, 1)]) == [true, true])
    #expect(
      SweepPareto.lines(rows: Self.rows([(1, 1)]), points: [(0, "", [])], subject: "headlines") { _ in "" }.isEmpty)
  }
}
