import Results
import SimulationEngine

/// The device's radios (Wi-Fi, LTE, 5G; each a ``RadioState`` machine shared by every widget, push and
/// activity) and which network the device is on: by the daily schedule, or drawn each hour with
/// `device.network.wifi_probability`.
struct Radios {
  let selection: NetworkSelection
  let configurations: [RadioConfiguration]
  private var states = Array(repeating: RadioState.initial, count: NetworkKind.allCases.count)
  /// The network drawn for this hour when the device picks one at random each hour.
  private(set) var hourlyNetwork: NetworkKind?
  let networkStream: RandomStream

  init(_ radios: RadioSet, selection: NetworkSelection, networkStream: RandomStream) {
    self.selection = selection
    configurations = NetworkKind.allCases.map { radios.radio($0) }
    self.networkStream = networkStream
  }

  /// The network the device is on now.
  func currentNetwork(at now: SimTime) -> NetworkKind {
    if let hourlyNetwork { return hourlyNetwork }
    return selection.scheduled(at: now.sinceMidnight)
  }

  /// With `wifi_probability`, draws this hour's network.
  mutating func drawHourlyNetwork() {
    guard let probability = selection.wifiProbability else { return }
    hourlyNetwork = networkStream.bernoulli(probability) ? .wifi : selection.cellular
  }

  /// Fetches `bytes` over the current network's radio; returns the transfer (its ``RadioState/Transfer/seconds``
  /// until the last byte) and the network it went over. `appSide`: the app's own fetch, booked as
  /// `app_network` rather than the radio's components.
  mutating func transfer(
    bytes: Double, subject: Int, at now: SimTime, appSide: Bool = false, _ energy: inout some EnergyRecording
  ) -> (transfer: RadioState.Transfer, network: NetworkKind) {
    let network = currentNetwork(at: now)
    let transfer = states[network.index].transfer(
      bytes: bytes, subject: subject, at: now, appSide: appSide, radio: configurations[network.index],
      energy: &energy)
    return (transfer, network)
  }

  /// How long `network`'s radio stays connected after a transfer.
  func tail(of network: NetworkKind) -> SimDuration {
    SimDuration(seconds: configurations[network.index].tailSeconds)
  }

  /// Books every tail that has run out by `now` (each hour).
  mutating func settle(at now: SimTime, _ energy: inout some EnergyRecording) {
    for network in states.indices {
      states[network].settle(at: now, radio: configurations[network], energy: &energy)
    }
  }

  /// Ends every tail now (the phone switched off, or the run ended).
  mutating func cut(at now: SimTime, _ energy: inout some EnergyRecording) {
    for network in states.indices {
      states[network].cut(at: now, radio: configurations[network], energy: &energy)
    }
  }
}

extension NetworkKind {
  /// Position in `NetworkKind.allCases`, for per-radio arrays.
  var index: Int {
    switch self {
    case .wifi: 0
    case .lte: 1
    case .nr5g: 2
    }
  }
}
