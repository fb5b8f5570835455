import Testing

@testable import WidgetModel

/// The power system's state machine, input by input.
@Suite("Power state machine")
struct PowerStateTests {
  static let settings = LowPowerModeConfiguration(threshold: 0.2, offAt: 0.8)

  @Test("Low Power Mode switches on below the threshold and off only at off_at (hysteresis)")
  func hysteresis() {
    var state = PowerState.normal
    #expect(state.endOfHour(stateOfCharge: 0.25, batteryEmpty: false, charging: false, Self.settings) == .none)
    #expect(state == .normal)
    #expect(state.endOfHour(stateOfCharge: 0.19, batteryEmpty: false, charging: false, Self.settings) == .none)
    #expect(state == .lowPowerMode)
    _ = state.endOfHour(stateOfCharge: 0.5, batteryEmpty: false, charging: false, Self.settings)
    #expect(state == .lowPowerMode, "charging past the threshold is not enough")
    _ = state.endOfHour(stateOfCharge: 0.8, batteryEmpty: false, charging: false, Self.settings)
    #expect(state == .normal)
  }

  @Test("an empty battery switches the phone off; charging to 5% starts it again, keeping Low Power Mode's state")
  func offAndOn() {
    var state = PowerState.lowPowerMode
    #expect(state.endOfHour(stateOfCharge: 0, batteryEmpty: true, charging: false, Self.settings) == .switchedOff)
    #expect(state == .off(lowPowerMode: true) && state.isOff && state.isLowPowerMode)
    #expect(state.endOfHour(stateOfCharge: 0.04, batteryEmpty: false, charging: true, Self.settings) == .none)
    #expect(state.isOff)
    #expect(state.endOfHour(stateOfCharge: 0.05, batteryEmpty: false, charging: true, Self.settings) == .switchedOn)
    #expect(state == .lowPowerMode)
  }

  @Test("without charging a switched-off phone stays off, however much charge a KiBaM battery gives back")
  func offWithoutCharging() {
    var state = PowerState.normal
    #expect(state.endOfHour(stateOfCharge: 0.3, batteryEmpty: true, charging: false, Self.settings) == .switchedOff)
    for soc in [0.05, 0.3, 0.9] {
      #expect(state.endOfHour(stateOfCharge: soc, batteryEmpty: false, charging: false, Self.settings) == .none)
      #expect(state.isOff)
    }
    // Charging with the available well still empty (KiBaM) does not start it either.
    #expect(state.endOfHour(stateOfCharge: 0.3, batteryEmpty: true, charging: true, Self.settings) == .none)
    #expect(state.isOff)
    // Charging, available charge and 5%: on again, not in Low Power Mode (its hysteresis ran on while off:
    // on at 5%, off again at 90%).
    #expect(state.endOfHour(stateOfCharge: 0.3, batteryEmpty: false, charging: true, Self.settings) == .switchedOn)
    #expect(state == .normal)
  }

  @Test("with Low Power Mode disabled the phone only switches off and on")
  func disabled() {
    var state = PowerState.normal
    _ = state.endOfHour(
      stateOfCharge: 0.01, batteryEmpty: false, charging: false, LowPowerModeConfiguration(enabled: false))
    #expect(state == .normal)
  }
}
