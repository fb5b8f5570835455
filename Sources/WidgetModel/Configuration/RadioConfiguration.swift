import SimulationEngine

/// A network the device can be on.
public enum NetworkKind: String, Sendable, CaseIterable {
  case wifi
  case lte
  /// 5G NR: LTE's figures times `RadioSet.nr5gPowerFactor` [A].
  case nr5g = "5g"
}

/// One radio's power state machine: idle -> promotion -> active (transfer) -> tail -> idle (docs/model.md,
/// Radios).
public struct RadioConfiguration: Sendable, Equatable {
  public var promotionWatts: Double
  public var promotionSeconds: Double
  /// Active power: base plus a term per Mbit/s of download throughput.
  public var activeWatts: Double
  public var activeWattsPerMbps: Double
  public var tailWatts: Double
  public var tailSeconds: Double
  /// Download throughput while active ([A]).
  public var throughputBitsPerSecond: Double

  public init(
    promotionWatts: Double, promotionSeconds: Double, activeWatts: Double, activeWattsPerMbps: Double,
    tailWatts: Double, tailSeconds: Double, throughputBitsPerSecond: Double
  ) {
    self.promotionWatts = promotionWatts
    self.promotionSeconds = promotionSeconds
    self.activeWatts = activeWatts
    self.activeWattsPerMbps = activeWattsPerMbps
    self.tailWatts = tailWatts
    self.tailSeconds = tailSeconds
    self.throughputBitsPerSecond = throughputBitsPerSecond
  }

  /// Power while transferring at the configured throughput.
  public var transferWatts: Double { activeWatts + activeWattsPerMbps * throughputBitsPerSecond / 1e6 }

  /// Wi-Fi: promotion 124 mW for 79 ms, active 133 mW + 137 mW/Mbps, tail 119 mW for 0.25 s (Huang et al.,
  /// MobiSys 2012, recalled; ARO WiFi.conf); 20 Mbit/s [A].
  public static let wifi = RadioConfiguration(
    promotionWatts: 0.124, promotionSeconds: 0.079, activeWatts: 0.133, activeWattsPerMbps: 0.137, tailWatts: 0.119,
    tailSeconds: 0.25, throughputBitsPerSecond: 20e6)
  /// LTE: promotion 1.21 W for 0.26 s, active 1.2 W + 52 mW/Mbps, tail 1.06 W for 10.1 s (ARO lte.conf;
  /// Huang et al. 2012); 10 Mbit/s [A].
  public static let lte = RadioConfiguration(
    promotionWatts: 1.21, promotionSeconds: 0.26, activeWatts: 1.2, activeWattsPerMbps: 0.052, tailWatts: 1.06,
    tailSeconds: 10.1, throughputBitsPerSecond: 10e6)
}

/// The device's radios. One radio per network, shared by all widgets, pushes and activities.
public struct RadioSet: Sendable {
  public var wifi: RadioConfiguration
  public var lte: RadioConfiguration
  /// 5G power relative to LTE ([A]: qualitative reports put it at 1.2-1.5x).
  public var nr5gPowerFactor: Double
  public var nr5gThroughputBitsPerSecond: Double

  public init(
    wifi: RadioConfiguration = .wifi, lte: RadioConfiguration = .lte, nr5gPowerFactor: Double = 1.3,
    nr5gThroughputBitsPerSecond: Double = 30e6
  ) {
    self.wifi = wifi
    self.lte = lte
    self.nr5gPowerFactor = nr5gPowerFactor
    self.nr5gThroughputBitsPerSecond = nr5gThroughputBitsPerSecond
  }

  /// The radio for a network.
  public func radio(_ kind: NetworkKind) -> RadioConfiguration {
    switch kind {
    case .wifi: return wifi
    case .lte: return lte
    case .nr5g:
      var radio = lte
      radio.promotionWatts *= nr5gPowerFactor
      radio.activeWatts *= nr5gPowerFactor
      radio.activeWattsPerMbps *= nr5gPowerFactor
      radio.tailWatts *= nr5gPowerFactor
      radio.throughputBitsPerSecond = nr5gThroughputBitsPerSecond
      return radio
    }
  }
}

/// Which network the device is on: a daily schedule of windows over a default, or, if
/// `wifiProbability` is set, a fresh draw every hour (Wi-Fi with that probability, else `cellular`).
public struct NetworkSelection: Sendable {
  public struct Window: Sendable {
    public var from: TimeOfDay
    public var to: TimeOfDay
    public var network: NetworkKind

    public init(from: TimeOfDay, to: TimeOfDay, network: NetworkKind) {
      self.from = from
      self.to = to
      self.network = network
    }

    var span: SleepWindow { SleepWindow(from: from, to: to) }
  }

  public var defaultNetwork: NetworkKind
  public var windows: [Window]
  public var wifiProbability: Double?
  /// The cellular network used when the hourly draw says not Wi-Fi.
  public var cellular: NetworkKind

  public init(
    defaultNetwork: NetworkKind = .wifi, windows: [Window] = [], wifiProbability: Double? = nil,
    cellular: NetworkKind = .lte
  ) {
    self.defaultNetwork = defaultNetwork
    self.windows = windows
    self.wifiProbability = wifiProbability
    self.cellular = cellular
  }

  /// What a scenario file's phone fetches over when it says nothing (`device.network` unwritten): Wi-Fi half
  /// of its hours, drawn each hour, else LTE. Smartphone users spend "roughly half of their time connected
  /// to Wifi" (43-54% by US operator: OpenSignal, Q1 2017 [O]); the share differs widely by country (about
  /// 10% in India, up to 80% in some during 2020's lockdowns: OpenSignal [O]) and by user. Low confidence:
  /// one analytics firm's panel, time connected rather than time fetching. A phone always on Wi-Fi is
  /// `{default: wifi}`; the model's own default (``init(defaultNetwork:windows:wifiProbability:cellular:)``)
  /// stays Wi-Fi all day.
  public static let scenarioDefault = NetworkSelection(wifiProbability: scenarioDefaultWifiShare, cellular: .lte)
  /// Wi-Fi's share of the default's hours [O, low confidence: see ``scenarioDefault``].
  public static let scenarioDefaultWifiShare = 0.5

  /// Whether this is the scenario files' default (``scenarioDefault``).
  public var isScenarioDefault: Bool {
    windows.isEmpty && wifiProbability == NetworkSelection.scenarioDefaultWifiShare && cellular == .lte
  }

  /// The scheduled network at `time` (the first window containing it, else the default).
  public func scheduled(at time: SimDuration) -> NetworkKind {
    let instant = SimTime(microseconds: time.microseconds)
    return windows.first { $0.span.contains(instant) }?.network ?? defaultNetwork
  }
}
