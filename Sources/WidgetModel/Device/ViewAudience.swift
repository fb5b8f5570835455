/// Which of the user's views something on this phone shows: the app's widgets installed on the Home Screen
/// (a page, another page, the Smart Stack), on the Lock Screen (or any Live Activity kind), controls in
/// Control Center. Found once per device, before its processes' rates are tabulated.
struct ViewAudience {
  let homeScreen: Bool
  let lockScreen: Bool
  let controlCenter: Bool

  init(instances: [WidgetInstance], hasActivities: Bool) {
    var home = false
    var lock = hasActivities
    var control = false
    for instance in instances where instance.installed {
      switch instance.placementRule.views {
      case .homeScreen: home = true
      case .lockScreen: lock = true
      case .controlCenter: control = true
      case .standby, .carplay, .none: break
      }
    }
    homeScreen = home
    lockScreen = lock
    controlCenter = control
  }
}
