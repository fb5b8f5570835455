import Testing

@testable import WidgetModel

/// The power system's state machine, input by input.
@Suite("Power state machine")
struct PowerStateTests {
  static let settings = LowPowerModeConfiguration(threshold: 0.2, offAt: 0.8)

  @Test("Low Power Mode switches on below the threshold and off only at off_at (hysteresis)")
  func hysteresis() {
    var state = PowerState.normal
    #expect(state.endOfHour(stateOfCharge: 0.25, batteryEmpty: false, Self.settings) == .none)
    #expect(state == .normal)
    #expect(state.endOfHour(stateOfCharge: 0.19, batteryEmpty: false, Self.settings) == .none)
    #expect(state == .lowPowerMode)
    _ = state.endOfHour(stateOfCharge: 0.5, batteryEmpty: false, Self.settings)
    #expect(state == .lowPowerMode, "charging past the threshold is not enough")
    _ = state.endOfHour(stateOfCharge: 0.8, batteryEmpty: false, Self.settings)
    #expect(state == .normal)
  }

  @Test("an empty battery switches the phone off; it starts again at 5%, keeping Low Power Mode's state")
  func offAndOn() {
    var state = PowerState.lowPowerMode
    #expect(state.endOfHour(stateOfCharge: 0, batteryEmpty: true, Self.settings) == .switchedOff)
    #expect(state == .off(lowPowerMode: true) && state.isOff && state.isLowPowerMode)
    #expect(state.endOfHour(stateOfCharge: 0.04, batteryEmpty: false, Self.settings) == .none)
    #expect(state.isOff)
    #expect(state.endOfHour(stateOfCharge: 0.05, batteryEmpty: false, Self.settings) == .switchedOn)
    #expect(state == .lowPowerMode)
  }

  @Test("with Low Power Mode disabled the phone only switches off and on")
  func disabled() {
    var state = PowerState.normal
    _ = state.endOfHour(stateOfCharge: 0.01, batteryEmpty: false, LowPowerModeConfiguration(enabled: false))
    #expect(state == .normal)
  }
}
