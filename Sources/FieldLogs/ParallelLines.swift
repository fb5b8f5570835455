import Dispatch

/// A batch of a log file's lines parsed on several threads (``FieldLogReader/read(path:jobs:_:)``): the lines
/// are gathered in file order, parsed into one slot each (each slot written by exactly one thread and read
/// after they all finish), then counted and handed on in file order, so the outcome is that of one thread.
struct ParallelLines {
  /// Lines a batch holds: enough that a thread's share outweighs starting it, few enough to cost little memory.
  static let capacity = 32_768
  /// Bytes a batch holds at most (lines may be long: up to ``FieldLogReader/lineLimit`` each).
  static let byteBudget = 16 << 20
  let path: String
  let jobs: Int
  /// The lines' bytes end to end (one buffer, kept from batch to batch: no allocation a line), and where
  /// each line ends.
  private var bytes: [UInt8] = []
  private var ends: [Int] = []
  private var firstNumber = 1

  init(path: String, jobs: Int) {
    (self.path, self.jobs) = (path, jobs)
    ends.reserveCapacity(ParallelLines.capacity)
  }

  /// Adds line `number`; whether the batch is full.
  mutating func add(_ line: [UInt8], number: Int) -> Bool {
    if ends.isEmpty { firstNumber = number }
    bytes.append(contentsOf: line)
    ends.append(bytes.count)
    return ends.count == ParallelLines.capacity || bytes.count >= ParallelLines.byteBudget
  }

  /// Parses the batch, then counts each line into `reader` and hands its record to `body`, in file order; the
  /// first line's error in file order is thrown once the lines before it are handed on.
  mutating func flush(
    into reader: inout FieldLogReader, _ body: (FieldLogEntry, Int) throws(FieldLogError) -> Void
  ) throws(FieldLogError) {
    guard !ends.isEmpty else { return }
    let count = ends.count
    // The buffer moves out while the threads read it and comes back emptied with its capacity.
    var text: [UInt8] = []
    swap(&text, &bytes)
    let slots = ParallelLines.parse(text, ends: ends, path: path, first: firstNumber, threads: Swift.min(jobs, count))
    text.removeAll(keepingCapacity: true)
    bytes = text
    let first = firstNumber
    ends.removeAll(keepingCapacity: true)
    for index in 0..<count {
      if let record = reader.count(try slots.take(index).get()) { try body(record, first + index) }
    }
  }
}

extension ParallelLines {
  /// Each line of `text` (ending at `ends`) parsed into its slot, on `threads` threads.
  fileprivate static func parse(_ text: [UInt8], ends: [Int], path: String, first: Int, threads: Int) -> ParsedSlots {
    let (count, slots) = (ends.count, ParsedSlots(count: ends.count, empty: .success(.blank)))
    DispatchQueue.concurrentPerform(iterations: threads) { worker in
      for index in (count * worker / threads)..<(count * (worker + 1) / threads) {
        let line = text[(index == 0 ? 0 : ends[index - 1])..<ends[index]]
        do throws(FieldLogError) {
          slots.set(index, .success(try FieldLogReader.parse(line, path: path, line: first + index)))
        } catch {
          slots.set(index, .failure(error))
        }
      }
    }
    return slots
  }
}

/// One parsed line a slot.
private typealias ParsedSlots = ThreadSlots<Result<FieldLogReader.ParsedLine, FieldLogError>>
