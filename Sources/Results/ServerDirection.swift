/// The two sides of the servers' load that are provisioned apart: what they receive (fetches from widgets and
/// the app, token registrations) and what they send (pushes to APNs, broadcast requests). No figure adds
/// both: a second busy with both asks two different systems for capacity.
public enum ServerDirection: Int, CaseIterable, Sendable {
  case received
  case sent

  /// How `summary.csv` names it (in the `widget` column of the provisioning metrics).
  public var name: String {
    switch self {
    case .received: "received"
    case .sent: "sent"
    }
  }

  /// Whether `source`'s requests go this way.
  public func counts(_ source: ServerSource) -> Bool { source.isPush == (self == .sent) }
}
