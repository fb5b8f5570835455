import SimulationEngine

/// Where energy goes, as energy.csv names it. Components are kept apart from the battery (the ns-3 split):
/// they report joules; the battery turns the sum into state of charge.
public enum EnergyComponent: Int, CaseIterable, Sendable {
  /// Timeline builds: active CPU power x CPU time, plus the awake overhead of waking the device.
  case cpu
  /// Rendering timeline entries (and Live Activity updates).
  case render
  /// Radio promotion from idle to connected.
  case radioPromotion
  /// Radio transferring.
  case radioActive
  /// Radio tail after a transfer (cut short when the next transfer starts inside it).
  case radioTail
  /// Waking for a delivered push.
  case pushWake
  /// The suspended device (and LTE paging while on cellular): under `device`.
  case baseline
  /// Everything else while the user is awake (screen, other apps): under `device`.
  case usage
  /// The host app's CPU when it runs for its widgets' data (its fetch's processing, and the awake overhead
  /// of a background launch): under `app`.
  case appCPU
  /// The radio for the app's fetches (promotion, transfer and tail on the shared radio): under `app`.
  case appNetwork

  public var name: String {
    switch self {
    case .cpu: "cpu"
    case .render: "render"
    case .radioPromotion: "radio_promotion"
    case .radioActive: "radio_active"
    case .radioTail: "radio_tail"
    case .pushWake: "push_wake"
    case .baseline: "baseline"
    case .usage: "usage"
    case .appCPU: "app_cpu"
    case .appNetwork: "app_network"
    }
  }
}

/// Energy by hour, subject and component in microjoules (integers: devices add up the same in any order),
/// and the joules the current device's battery has not yet been charged with.
///
/// Subjects: widget instances 0..<n, then `device`, `widget_push`, then each Live Activity kind, then `app`.
///
/// A phone books a few of its columns (subject and component: a widget's CPU and render, the device's
/// baseline and usage, the app's...), so a ledger with at most 128 columns (12 subjects: up to nine widget
/// instances and Live Activity kinds) notes which ones it ever booked (``bookedColumns``): adding it into a
/// run's sum, emptying it for reuse and totalling it walk only those, not every cell of every hour (a light
/// phone's replication: 6 of 40; a four-widget polling phone's: 24 of 70). Never booked means zero in every
/// hour, so the sums are the same integers.
struct EnergyLedger: Sendable, DayCleared {
  let subjectCount: Int
  private(set) var hours: Int
  /// 128-bit: a fleet's sum over a billion devices of any bookings cannot overflow.
  var microjoules: [Int128]
  /// Energy booked since the battery was last updated (the device being simulated).
  var undrained = 0.0
  /// Energy booked for the current device, by subject (to divide by that device's own battery), in the
  /// books' microjoules.
  private(set) var deviceSubjectMicrojoules: [Int128]
  /// Bit `subject * componentCount + component`: the column may hold a booking in some hour (all bits when
  /// the ledger has more than 128 columns, or was read from a file). Only ever set, but by ``reset()``.
  private(set) var bookedColumns: UInt128

  /// An empty ledger of no hours.
  init() {
    self.init(hours: 0, subjectCount: 0)
  }

  init(hours: Int, subjectCount: Int) {
    self.subjectCount = subjectCount
    self.hours = hours
    microjoules = Array(repeating: 0, count: hours * subjectCount * EnergyLedger.componentCount)
    deviceSubjectMicrojoules = Array(repeating: 0, count: subjectCount)
    bookedColumns = EnergyLedger.noColumns(subjectCount: subjectCount)
  }

  /// Columns of a row (an hour).
  var columnCount: Int { subjectCount * EnergyLedger.componentCount }

  /// Whether columns are noted one by one (at most 128 of them); otherwise every column counts as booked.
  var tracksColumns: Bool { columnCount <= UInt128.bitWidth }

  /// ``bookedColumns`` of an empty ledger.
  static func noColumns(subjectCount: Int) -> UInt128 {
    subjectCount * componentCount <= UInt128.bitWidth ? 0 : .max
  }

  /// Whether walking the booked columns of each hour costs less than walking every cell (at most half the
  /// columns: a phone's replication, 6 of 40 for one widget, 14 of 50 for two; a fleet's sum, or a busy
  /// device, uses the plain loops). The small books of a replication stay in the cache, so a booked cell
  /// costs about what a cell of the plain loop costs.
  var walksColumns: Bool { tracksColumns && bookedColumns.nonzeroBitCount * 2 <= columnCount }

  /// Empties the current device's figures for the next device (the books themselves keep adding up).
  mutating func startDevice() {
    undrained = 0
    for subject in deviceSubjectMicrojoules.indices { deviceSubjectMicrojoules[subject] = 0 }
  }

  /// The current device's widgets, pushes and activities, in joules: every subject but the device's own
  /// (the only one booked baseline and usage). Derived at the end of a device, not added up per booking.
  func deviceWidgetJoules(deviceSubject: Int) -> Double {
    var sum: Int128 = 0
    for (subject, micro) in deviceSubjectMicrojoules.enumerated() where subject != deviceSubject { sum += micro }
    return sum.double / 1e6
  }

  /// The most one booking counts, either way (a terajoule: only absurd draws or parameters come near it;
  /// it keeps every sum finite).
  static let largestBookingJoules = 1e12

  mutating func book(_ joules: Double, hourIndex: Int, subject: Int, component: EnergyComponent) {
    guard joules != 0 && !joules.isNaN else { return }
    let limit = EnergyLedger.largestBookingJoules
    let amount = Swift.min(Swift.max(joules, -limit), limit)
    let hour = Swift.min(Swift.max(hourIndex, 0), hours - 1)
    let micro = Int128(Int64(nearest: amount * 1e6))
    let column = subject * EnergyLedger.componentCount + component.rawValue
    bookedColumns |= 1 &<< UInt128(truncatingIfNeeded: column)  // wraps past 128 columns, where all are set
    microjoules[hour * subjectCount * EnergyLedger.componentCount + column] += micro
    undrained += amount
    deviceSubjectMicrojoules[subject] += micro
  }

  /// Adds another ledger's bookings (another worker's devices, a replication into a run's sum).
  mutating func merge(_ other: EnergyLedger) {
    precondition(microjoules.count == other.microjoules.count, "merged energy ledgers of different shapes")
    // Wrapping adds, which cannot wrap: a cell is a sum of bookings each clamped to 10^18 microjoules
    // (``largestBookingJoules``), and 2^127 would take 10^20 of them. Without the overflow check the merge
    // (the largest 128-bit array of a replication's result) is plain adds, not a branch per cell.
    let columns = columnCount
    let hours = hours
    microjoules.withUnsafeMutableBufferPointer { mine in
      other.microjoules.withUnsafeBufferPointer { theirs in
        if other.walksColumns {
          other.bookedColumns.forEachSetBit { column in
            for hour in 0..<hours { mine[hour * columns + column] &+= theirs[hour * columns + column] }
          }
        } else {
          for index in mine.indices { mine[index] &+= theirs[index] }
        }
      }
    }
    bookedColumns |= other.bookedColumns
  }

  mutating func dropFirst(days: Int, of total: Int) {
    guard days > 0 else { return }
    microjoules.removeFirst(days * 24 * subjectCount * EnergyLedger.componentCount)
    hours -= days * 24
  }

  /// Empties the books for another run, keeping their memory.
  mutating func reset() {
    microjoules.reset()
    bookedColumns = EnergyLedger.noColumns(subjectCount: subjectCount)
    startDevice()
  }

  /// Empties the hours of `days` (of `total`): only the booked columns when they are few.
  mutating func clear(days: Range<Int>, of total: Int) {
    guard !days.isEmpty, total > 0 else { return }
    guard walksColumns else { return microjoules.clear(days: days, of: total) }
    let columns = columnCount
    let hoursPerDay = hours / total
    let hoursCleared = (days.lowerBound * hoursPerDay)..<(days.upperBound * hoursPerDay)
    let booked = bookedColumns
    microjoules.withUnsafeMutableBufferPointer { books in
      booked.forEachSetBit { column in
        for hour in hoursCleared { books[hour * columns + column] = 0 }
      }
    }
  }

  mutating func resetAllButDays() {
    startDevice()
  }

  /// Every subject's microjoules over every hour, by `subject * componentCount + component`, in one pass
  /// over the books (a replication's summary reads each subject's total several times).
  func totalsBySubject() -> [Int128] {
    var totals = [Int128](repeating: 0, count: columnCount)
    let hours = hours
    let (walks, booked) = (walksColumns, bookedColumns)
    microjoules.withUnsafeBufferPointer { books in
      totals.withUnsafeMutableBufferPointer { totals in
        let columns = totals.count
        if walks {
          booked.forEachSetBit { column in
            var total: Int128 = 0
            for hour in 0..<hours { total += books[hour * columns + column] }
            totals[column] = total
          }
        } else {
          for hour in 0..<hours {
            let base = hour * columns
            for cell in 0..<columns { totals[cell] += books[base + cell] }
          }
        }
      }
    }
    return totals
  }

  func value(hourIndex: Int, subject: Int, component: EnergyComponent) -> Double {
    microjoules[(hourIndex * subjectCount + subject) * EnergyLedger.componentCount + component.rawValue].double / 1e6
  }

  /// `EnergyComponent.allCases.count`, as a constant (allCases builds an array).
  static var componentCount: Int { 10 }
}

/// The books (not the current device's figures), for shard files.
extension EnergyLedger: BinaryCodable {
  func encode(to writer: inout BinaryWriter) {
    subjectCount.encode(to: &writer)
    hours.encode(to: &writer)
    microjoules.encode(to: &writer)
  }

  init(from reader: inout BinaryReader) throws(BinaryDecodingError) {
    let subjects = try Int(from: &reader)
    let hours = try Int(from: &reader)
    guard subjects >= 0, hours >= 0, subjects < 1 << 20, hours < 1 << 24 else {
      throw reader.error("an energy ledger of \(hours) hours x \(subjects) subjects")
    }
    self.init(hours: hours, subjectCount: subjects)
    let books = try [Int128](from: &reader)
    guard books.count == microjoules.count else { throw reader.error("an energy ledger of the wrong size") }
    microjoules = books
    bookedColumns = .max  // which columns the file's books use is not written: any may
  }
}
