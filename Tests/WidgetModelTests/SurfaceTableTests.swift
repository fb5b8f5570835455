import TestSupport
import Testing

@testable import WidgetModel

/// The surface table is the one place a placement's behaviour is written: the model reads it, the decoder
/// checks families by it, and the documentation holds it as the code has it.
@Suite("Surface table")
struct SurfaceTableTests {
  @Test("one row per placement, in order; what each holds gives the widget and control placements")
  func rows() {
    #expect(PlacementRule.table.map(\.placement) == WidgetPlacement.allCases)
    #expect(WidgetPlacement.allCases.allSatisfy { $0.rule.placement == $0 && !$0.rule.holds.isEmpty })
    #expect(
      WidgetPlacement.widgetPlacements == [.home, .homeOtherPage, .smartStack, .lockScreen, .standby, .carplay])
    #expect(WidgetPlacement.controlPlacements == [.lockScreen, .controlCenter, .actionButton])
    // Only Home Screen placements have a share of the Home Screen's views other than every one.
    #expect(PlacementRule.table.allSatisfy { $0.views == .homeScreen || $0.homeScreenShare == .every })
  }

  @Test("families: the Lock Screen shows accessories, StandBy and CarPlay systemSmall, the Home Screen the rest")
  func families() {
    for family in WidgetFamily.allCases {
      #expect(WidgetPlacement.lockScreen.rule.shows(family) == family.isAccessory)
      #expect(WidgetPlacement.standby.rule.shows(family) == (family == .systemSmall))
      #expect(WidgetPlacement.carplay.rule.shows(family) == (family == .systemSmall))
      for placement in [WidgetPlacement.home, .homeOtherPage, .smartStack] {
        #expect(placement.rule.shows(family) == !family.isAccessory)
      }
    }
  }

  @Test("a system refresh is an exempt trigger that reloads exactly that placement's instances")
  func systemRefresh() {
    let refreshed = PlacementRule.table.compactMap { rule in rule.systemRefresh.map { (rule.placement, $0) } }
    #expect(refreshed.map(\.0) == [.standby, .carplay])
    for (placement, cause) in refreshed {
      #expect(cause.trigger.budget == .exempt)
      #expect(cause.trigger.reloads == (placement == .standby ? .standbyInstances : .carplayInstances))
    }
  }

  @Test("docs/ARCHITECTURE.md holds the table exactly as the code has it")
  func documentation() throws {
    let architecture = try TestFiles.read(Repository.path("docs/ARCHITECTURE.md"))
    #expect(
      architecture.contains(PlacementRule.markdownTable),
      "docs/ARCHITECTURE.md's surface table differs from PlacementRule.table; paste this:\n\(PlacementRule.markdownTable)"
    )
  }
}
