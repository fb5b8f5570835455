import ResultStorage
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

/// Energy by hour, subject and component in microjoules (integers: devices add up the same in any order):
/// what was spent, written down; the battery that pays for it is the model's.
///
/// Subjects: widget instances 0..<n, then `device`, `widget_push`, then each Live Activity kind, then `app`.
///
/// A phone books a few of its columns (subject and component: a widget's CPU and render, the device's
/// baseline and usage, the app's...), so a ledger with at most 128 columns (12 subjects: up to nine widget
/// instances and Live Activity kinds) notes which ones it ever booked (``BookedColumns``): adding it into a
/// run's sum, emptying it for reuse and totalling it walk only those, not every cell of every hour (a light
/// phone's replication: 6 of 40; a four-widget polling phone's: 24 of 70). Never booked means zero in every
/// hour, so the sums are the same integers.
package struct EnergyLedger: Sendable, DayCleared {
  let subjectCount: Int
  /// Microjoules by hour (row) and subject and component (column: ``column(subject:component:)``); 128-bit:
  /// a fleet's sum over a billion devices of any bookings cannot overflow.
  private(set) var books: BookedColumns<Int128, UInt128>
  /// The first hour whose bookings are the current device's figures: the hours before are a warm-up's, whose
  /// energy the books drop with it (a booking made just after the warm-up may fall in its last hour).
  package var deviceFromHour = 0
  /// Energy booked for the current device, by subject (to divide by that device's own battery), in the
  /// books' microjoules: held in place for up to ``inlineSubjects`` subjects (a booking adds to it without
  /// checking an array's buffer for sharing first), in `spilledSubjectMicrojoules` beyond.
  private var deviceSubjectMicrojoules = InlineSubjects(repeating: 0)
  private var spilledSubjectMicrojoules: [Int128]
  /// `InlineArray` needs Swift 6.2 (Package.swift's tools version).
  private typealias InlineSubjects = InlineArray<16, Int128>
  /// Subjects whose device figures are held in place (`deviceSubjectMicrojoules`'s count).
  static let inlineSubjects = InlineSubjects(repeating: 0).count
  /// Whether this ledger's subjects fit in place.
  private var holdsInPlace: Bool { subjectCount <= EnergyLedger.inlineSubjects }

  /// An empty ledger of no hours.
  package init() {
    self.init(hours: 0, subjectCount: 0)
  }

  package init(hours: Int, subjectCount: Int) {
    self.subjectCount = subjectCount
    books = BookedColumns(rows: hours, columns: subjectCount * EnergyLedger.componentCount)
    spilledSubjectMicrojoules = []
    if !holdsInPlace { spilledSubjectMicrojoules = Array(repeating: 0, count: subjectCount) }
  }

  var hours: Int { books.rows }
  /// Hour by hour, then subject by subject, a cell per component.
  var microjoules: [Int128] { books.cells }
  var walksColumns: Bool { books.walksColumns }

  /// Empties the current device's figures for the next device (the books themselves keep adding up).
  package mutating func startDevice() {
    for subject in 0..<Swift.min(subjectCount, EnergyLedger.inlineSubjects) { deviceSubjectMicrojoules[subject] = 0 }
    for subject in spilledSubjectMicrojoules.indices { spilledSubjectMicrojoules[subject] = 0 }
  }

  /// Energy booked for the current device to `subject`, in the books' microjoules.
  package func deviceMicrojoules(subject: Int) -> Int128 {
    holdsInPlace ? deviceSubjectMicrojoules[subject] : spilledSubjectMicrojoules[subject]
  }

  /// The current device's widgets, pushes and activities, in joules: every subject but the device's own
  /// (the only one booked baseline and usage). Derived at the end of a device, not added up per booking.
  package func deviceWidgetJoules(deviceSubject: Int) -> Double {
    var sum: Int128 = 0
    for subject in 0..<subjectCount where subject != deviceSubject { sum += deviceMicrojoules(subject: subject) }
    return sum.double / 1e6
  }

  /// The most one booking counts, either way (a terajoule: only absurd draws or parameters come near it;
  /// it keeps every sum finite).
  static let largestBookingJoules = 1e12

  /// Books `joules` (clamped to ``largestBookingJoules``; nothing for zero or NaN) and returns what it booked.
  @discardableResult
  package mutating func book(_ joules: Double, hourIndex: Int, subject: Int, component: EnergyComponent) -> Double {
    // The ledger's cells are addressed by subject and component: a subject past the last is a model error.
    precondition(
      UInt(bitPattern: subject) < UInt(bitPattern: subjectCount), "energy subject \(subject) of \(subjectCount)")
    guard joules != 0 && !joules.isNaN else { return 0 }
    let (amount, micro) = EnergyLedger.clamped(joules)
    let hour = Swift.min(Swift.max(hourIndex, 0), hours - 1)
    books.add(micro, row: hour, column: EnergyLedger.column(subject: subject, component: component))
    if hour >= deviceFromHour { addToDevice(micro, subject: subject) }
    return amount
  }

  /// `joules` held to ``largestBookingJoules`` either way, and that amount in whole microjoules.
  @inline(__always)
  private static func clamped(_ joules: Double) -> (amount: Double, micro: Int128) {
    let amount = Swift.min(Swift.max(joules, -largestBookingJoules), largestBookingJoules)
    return (amount, Int128(Int64(nearest: amount * 1e6)))
  }

  /// Adds `micro` to the device's total of `subject`.
  @inline(__always)
  private mutating func addToDevice(_ micro: Int128, subject: Int) {
    // Wrapping: at most 10^18 a booking (clamped), 10^20 bookings before a wrap.
    if holdsInPlace {
      deviceSubjectMicrojoules[subject] &+= micro
    } else {
      spilledSubjectMicrojoules[subject] &+= micro
    }
  }

  /// Books `first` as `components.0`, then `second` as `components.1`, both to `subject` in hour `hourIndex`:
  /// the same integers, and the same amounts returned one by one, as the two ``book(_:hourIndex:subject:component:)``
  /// calls, each amount rounded to microjoules on its own; the checks, the hour and the cells' row worked out
  /// once (a build's CPU and wake-up, a transfer's promotion and active energy, an hour's baseline and usage).
  @discardableResult
  package mutating func book(
    _ first: Double, _ second: Double, hourIndex: Int, subject: Int, components: (EnergyComponent, EnergyComponent)
  ) -> (Double, Double) {
    // Either one books nothing (zero or NaN): the two bookings one by one, each with its own checks.
    guard first != 0 && !first.isNaN && second != 0 && !second.isNaN else {
      let booked = book(first, hourIndex: hourIndex, subject: subject, component: components.0)
      return (booked, book(second, hourIndex: hourIndex, subject: subject, component: components.1))
    }
    precondition(
      UInt(bitPattern: subject) < UInt(bitPattern: subjectCount), "energy subject \(subject) of \(subjectCount)")
    let (firstAmount, firstMicro) = EnergyLedger.clamped(first)
    let (secondAmount, secondMicro) = EnergyLedger.clamped(second)
    let hour = Swift.min(Swift.max(hourIndex, 0), hours - 1)
    books.add(
      firstMicro, column: EnergyLedger.column(subject: subject, component: components.0), secondMicro,
      column: EnergyLedger.column(subject: subject, component: components.1), row: hour)
    if hour >= deviceFromHour { addToDevice(firstMicro &+ secondMicro, subject: subject) }
    return (firstAmount, secondAmount)
  }

  /// Adds another ledger's bookings (another worker's devices, a replication into a run's sum).
  package mutating func merge(_ other: EnergyLedger) {
    // Wrapping adds, which cannot wrap: a cell is a sum of bookings each clamped to 10^18 microjoules
    // (``largestBookingJoules``), and 2^127 would take 10^20 of them. Without the overflow check the merge
    // (the largest 128-bit array of a replication's result) is plain adds, not a branch per cell.
    books.merge(other.books, wrapping: true)
  }

  /// Merges and empties `other`'s books (its booked columns, in the same walk).
  package mutating func absorb(_ other: inout EnergyLedger) {
    books.absorb(&other.books)  // wrapping, as merge(_:)
  }

  package mutating func dropFirst(days: Int, of total: Int) {
    books.dropFirst(days: days, of: total)
  }

  /// Empties the books for another run, keeping their memory.
  package mutating func reset() {
    books.reset()
    startDevice()
  }

  /// Empties the hours of `days` (of `total`): only the booked columns when they are few.
  package mutating func clear(days: Range<Int>, of total: Int) {
    books.clear(days: days, of: total)
  }

  package mutating func resetAllButDays() {
    startDevice()
  }

  /// Every subject's microjoules over every hour, by column (``column(subject:component:)``), in one pass
  /// over the books (a replication's summary reads each subject's total several times).
  func totalsBySubject() -> [Int128] {
    books.totals()
  }

  func value(hourIndex: Int, subject: Int, component: EnergyComponent) -> Double {
    books[hourIndex, EnergyLedger.column(subject: subject, component: component)].double / 1e6
  }

  /// `EnergyComponent.allCases.count`, as a constant (allCases builds an array).
  static var componentCount: Int { 10 }

  /// The books' columns: a subject's components together.
  static var columns: TableLayout { TableLayout(columns: componentCount) }

  /// The column of a subject's component.
  @inline(__always)
  static func column(subject: Int, component: EnergyComponent) -> Int {
    columns.index(subject, component.rawValue)
  }
}

/// The books (not the current device's figures), for shard files.
extension EnergyLedger: BinaryCodable {
  package func encode(to writer: inout BinaryWriter) {
    subjectCount.encode(to: &writer)
    hours.encode(to: &writer)
    microjoules.encode(to: &writer)
  }

  package init(from reader: inout BinaryReader) throws(BinaryDecodingError) {
    let subjects = try Int(from: &reader)
    let hours = try Int(from: &reader)
    guard subjects >= 0, hours >= 0, subjects < 1 << 20, hours < 1 << 24 else {
      throw reader.error("an energy ledger of \(hours) hours x \(subjects) subjects")
    }
    self.init(hours: hours, subjectCount: subjects)
    let cells = try [Int128](from: &reader)
    guard cells.count == hours * subjects * EnergyLedger.componentCount else {
      throw reader.error("an energy ledger of the wrong size")
    }
    // Which columns the file's books use is not written: any may.
    books = BookedColumns(rows: hours, columns: subjects * EnergyLedger.componentCount, cells: cells)
  }
}
