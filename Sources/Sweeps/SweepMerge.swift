import CommandSupport
import Reports

/// Combining the folders of a sharded sweep into the whole sweep's reports: `widgetsim merge`.
public enum SweepMerge {
  /// Reads every shard folder's journal and writes the reports into `directory` (nil: the first folder),
  /// refusing to replace reports there unless `force`. Fails with exit 2 on unreadable or mismatched
  /// folders and when tasks are missing from all of them (a shard folder left out), as a fleet merge does.
  public static func run(
    folders: [String], directory: String?, baselinePoint: Int?, force: Bool, console: Console
  ) throws(CommandFailure) {
    guard let first = folders.first else { throw .badInput("give at least one shard folder") }
    try CommandFailure.mapping(status: 2) {
      let (keys, points, tasks) = try SweepOutput.readPoints(from: first)
      var identity: SweepIdentity?
      var values: [Int: [MetricValue]] = [:]
      for folder in folders {
        let journal = try SweepJournal.load(path: "\(folder)/\(SweepOutput.journal)")
        // The points say which task is which point and replication: each folder's must give the journal's tasks.
        let (folderKeys, folderPoints, folderTasks) = try SweepOutput.readPoints(from: folder)
        guard journal.tasks == tasks.count, folderKeys == keys, folderPoints.map(\.index) == points.map(\.index),
          folderPoints.map(\.label) == points.map(\.label), folderPoints.map(\.values) == points.map(\.values),
          folderTasks.map(\.point) == tasks.map(\.point), folderTasks.map(\.replication) == tasks.map(\.replication)
        else {
          throw CommandFailure.badInput(
            "\(folder)/\(SweepOutput.points) and \(folder)/\(SweepOutput.journal) do not describe the sweep of "
              + "\(first)/\(SweepOutput.points) (\(journal.tasks) tasks in the journal, \(folderTasks.count) in the "
              + "folder's points, \(tasks.count) in the first folder's): was one edited?")
        }
        if let identity, identity != journal.identity {
          throw CommandFailure.badInput(
            "\(folder) holds a different sweep than \(first): "
              + journal.identity.differences(from: identity).joined(separator: "; ") + " (\(first) vs \(folder))")
        }
        identity = journal.identity
        values.merge(journal.done) { first, _ in first }
      }
      let missing = tasks.indices.filter { values[$0] == nil }
      guard missing.isEmpty else {
        throw CommandFailure.badInput(
          "\(missing.count) of \(tasks.count) tasks are in no shard folder (first: task \(missing[0])): "
            + "give every shard's folder, each finished")
      }
      let directory = directory ?? first
      // Every shard wrote the same manifest (the identity check above holds them to one sweep); older
      // shard folders have none.
      let manifest = try SweepManifest(directory: first)
      // Checked under the folder's lock: no other command can write reports there in between.
      let lock = try OutputFolder.prepare(directory)
      defer { withExtendedLifetime(lock) {} }
      let found = ExistingReports.find(SweepReports.files + ["sweep_baseline.csv"], in: directory)
      if !force && !found.isEmpty { throw CommandFailure.badInput(ExistingReports.refusal(found, in: directory)) }
      // The manifest and the reports are one set: a merge stopped part way leaves the old set or the new one.
      let set = ReportSet(directory: directory)
      if let manifest { try set.write(manifest.json, to: SweepManifest.file) }
      let rows = try SweepReports.write(
        points: points, keys: keys, tasks: tasks, values: values, baseline: baselinePoint, into: set)
      try set.commit()
      let lines = SweepExecution.finishedLines(
        rows: rows, points: points, keys: keys, objective: manifest?.objective, directory: directory,
        baselinePoint: baselinePoint)
      for line in lines { console.print(line) }
    }
  }
}
