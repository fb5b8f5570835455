import Testing

@testable import Results
@testable import WidgetModel

/// The wake-channel and push-kind tables are the one list of the ways the app comes to run and of the pushes
/// a data change sends: every row agrees with the vocabulary results are kept by, and the two tables agree
/// with each other. A new channel or push kind that breaks one of these fails here.
@Suite("Wake-channel and push-kind tables")
struct WakeChannelTableTests {
  @Test("every wake channel has one row, its own app-fetch source and report name, a reload cause of the app")
  func channels() {
    let rows = AppWakeChannel.allCases.map(\.wake)
    #expect(zip(AppWakeChannel.allCases, rows).allSatisfy { $0 == $1.channel })
    let names = AppWakeChannel.allCases.map(\.name)
    #expect(Set(names).count == names.count)
    let fetches = rows.map(\.fetchSource)
    #expect(Set(fetches).count == fetches.count)
    #expect(fetches.allSatisfy { $0.isFetch && !$0.isPush && !$0.isFleetWide })
    // The app's fetches in server_load.csv are exactly the channels' fetch sources.
    #expect(Set(fetches) == Set(ServerStream.appFetch.sources))
    #expect(!fetches.contains(.widgetFetch))
    let causes = rows.map(\.reloadCause)
    #expect(Set(causes).count == causes.count)
    #expect(!causes.contains(.push) && !causes.contains(.policy))
  }

  @Test("every server source is a stream of its own: the widget's fetches, the app's on every channel, the rest")
  func serverStreams() {
    #expect(ServerStream.allCases.enumerated().allSatisfy { $0.offset == $0.element.rawValue })
    #expect(ServerStream.partition == ServerSource.allCases.map { ServerStream.source($0) })
    #expect(ServerStream.allCases.filter { $0.sources.count > 1 } == [.appFetch])
    // Fetches first, then the per-device pushes, as the per-minute totals add them.
    #expect(ServerLoad.sourcesInOrder)
    let names = ServerStream.allCases.map(\.name)
    #expect(Set(names).count == names.count)
  }

  @Test("a background launch is time-limited, capped, and its reloads budgeted unless the app's key exempts them")
  func backgroundLaunches() {
    for row in AppWakeChannel.allCases.map(\.wake) where row.backgroundTimeLimit {
      #expect(row.caps != .none, "\(row.channel.name) launches in the background without a cap")
      #expect(row.reloadCause.trigger.budget == .appBackground, "\(row.channel.name)")
      #expect(row.fieldRecord != nil, "\(row.channel.name) launches without a field-log line")
    }
    let records = AppWakeChannel.allCases.compactMap(\.wake.fieldRecord)
    #expect(records.indices.allSatisfy { index in !records[..<index].contains(records[index]) })
  }

  @Test("every push kind has one row: its own scenario word, server source and trace topic")
  func pushKinds() {
    let rows = PushKind.allCases.map(\.row)
    #expect(zip(PushKind.allCases, rows).allSatisfy { $0 == $1.kind })
    let keys = rows.map(\.scenarioKey.description)
    #expect(Set(keys).count == keys.count)
    #expect(keys.allSatisfy { DataChangeAction(rawValue: $0) == nil })
    let sources = rows.map(\.serverSource)
    #expect(Set(sources).count == sources.count)
    #expect(sources.allSatisfy { $0.isPush && !$0.isFetch && !$0.isFleetWide })
    let sendLogNames = rows.flatMap { [$0.kind.rawValue, $0.apnsPushType.description] }
    #expect(Set(sendLogNames).count == sendLogNames.count)
    let topics = rows.map(\.traceTopic.description)
    #expect(Set(topics).count == topics.count)
    #expect(rows.allSatisfy { $0.priority == 5 || $0.priority == 10 })
  }

  @Test("a push that launches the app names a background channel that names it back; no other channel has a push")
  func launchingPushes() {
    for kind in PushKind.allCases {
      guard let channel = kind.row.launches else { continue }
      #expect(channel.wake.push == kind)
      #expect(channel.wake.backgroundTimeLimit && channel.wake.caps == .pushLimits)
      #expect(channel.wake.sendSource == kind.row.serverSource)
      #expect(channel.wake.traceTopic?.description == kind.row.traceTopic.description)
      #expect(channel.wake.energy == kind.row.energy)
    }
    for channel in AppWakeChannel.allCases {
      guard let push = channel.wake.push else {
        #expect(channel.wake.sendSource == nil && channel.wake.traceTopic == nil)
        continue
      }
      #expect(push.row.launches == channel)
    }
  }

  @Test("a push kind's field-log line, caps and delay stream follow from its row, each its own")
  func derivedFromThePushKindTable() {
    let rows = PushKind.allCases.map(\.row)
    let lines = rows.map(\.fieldLogEvent.description)
    #expect(Set(lines).count == lines.count)
    let sections = rows.map(\.capsSection.description)
    #expect(Set(sections).count == sections.count)
    let system = SystemConfiguration()
    for kind in PushKind.allCases {
      #expect((system.launchingPush(kind) != nil) == (kind.row.launches != nil), "\(kind)")
    }
    // The silent push keeps the unlabelled stream the fingerprints were recorded with: its role's raw value
    // and FNV-1a's offset basis for no label.
    #expect(StreamRole.launchingPushDelayLabel(.silent) == "")
    #expect(
      StreamRole.launchingPushDelay.streamID(label: StreamRole.launchingPushDelayLabel(.silent))
        == StreamRole.launchingPushDelay.rawValue << 56 | 0x00F2_9CE4_8422_2325)
    #expect(StreamRole.launchingPushDelay.rawValue == 29)
    let streams = PushKind.launching.map {
      StreamRole.launchingPushDelay.streamID(label: StreamRole.launchingPushDelayLabel($0))
    }
    #expect(Set(streams).count == streams.count)
  }

  @Test("a fleet event sends one push of each kind its changed data sends, and counts them")
  func fleetEventPushes() {
    for kinds in [Set<PushKind>(), [.widget], [.silent], Set(PushKind.allCases)] {
      var widget = ModelFixtures.widget("w", policy: .never)
      widget.data.pushes = kinds
      let event = FleetEventConfiguration(id: "e", dataKeys: [widget.dataKey], activityKinds: [0])
      #expect(PushKind.allCases.allSatisfy { event.sends($0, widgets: [widget]) == kinds.contains($0) })
      #expect(event.pushesPerOccurrence(widgets: [widget]) == kinds.count + 1)
      #expect(PushKind.ordered(kinds) == PushKind.allCases.filter(kinds.contains))
    }
  }
}
