import Foundation
import SQLiteKit
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Crash safety, tested for real (README "Guarantees"): a large write and a backup are killed
/// with SIGKILL at seeded random instants, and each time the case file passes
/// `integrity_check` and holds the state wholly before or wholly after the command; a killed
/// backup leaves its destination absent or complete, never half.
///
/// The instants are stratified over the calibrated length of one uninterrupted run (0 to 110%),
/// so kills land early, late, in the commit and in the checkpoint after it. Repeat a failure
/// with `INSPECTOR_TEST_SEED=<seed>`.
@Suite(.serialized, .tags(.slow, .crash, .processes), .skippedInFastSet) struct CrashSafetyTests {
  /// Rows one `sql --write` script inserts.
  static let rowsPerWrite = 300_000
  /// Kills per test.
  static let kills = 5

  /// One script, one transaction: hundreds of thousands of evidence rows, then a fruit named
  /// after the new total, so "wholly before or after" covers several statements.
  static let largeWrite = """
    WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < \(rowsPerWrite))
    INSERT INTO evidence (note) SELECT 'clue ' || x FROM c;
    INSERT INTO fruits (name, color) SELECT 'Batch ' || count(*), 'red' FROM evidence;
    """

  /// The evidence rows and the batch fruits in the case file, after recovering any WAL, and
  /// the file's `integrity_check` and `foreign_key_check`.
  static func inspect(_ sandbox: ProcessSandbox) throws -> (
    evidence: Int, batches: Int, integrity: [String], danglingRows: Int
  ) {
    let connection = try sandbox.connection()
    return (
      Int(try connection.scalar("SELECT count(*) FROM evidence")?.integerValue ?? -1),
      Int(
        try connection.scalar("SELECT count(*) FROM fruits WHERE name LIKE 'Batch %'")?
          .integerValue ?? -1),
      try connection.integrityCheck(), try connection.foreignKeyCheck().count
    )
  }

  /// Delays in seconds, one in each of `count` equal slices of `0...1.5 * length` (runs under
  /// load take longer than the calibration, so the window reaches past it).
  static func killDelays(count: Int, length: Double, generator: inout SeededGenerator)
    -> [Double]
  {
    (0..<count).map { slice in
      let fraction = (Double(slice) + Double.random(in: 0..<1, using: &generator)) / Double(count)
      return fraction * 1.5 * length
    }
  }

  /// When to kill a run.
  enum KillPoint: CustomStringConvertible {
    /// After a delay in seconds.
    case after(Double)
    /// As soon as `file` is bigger than `size` bytes (polled every millisecond).
    case whenLarger(file: String, than: Int)

    var description: String {
      switch self {
      case .after(let delay): "after \(Int(delay * 1000)) ms"
      case .whenLarger(let file, let size):
        "when \(file.split(separator: "/").last ?? "") > \(size) bytes"
      }
    }
  }

  /// Starts `arguments`, kills it with SIGKILL at `point` (unless it has finished), and reports
  /// whether the kill landed.
  static func runAndKill(
    _ sandbox: ProcessSandbox, _ arguments: [String], at point: KillPoint
  ) throws -> Bool {
    let process = try sandbox.start(arguments)
    switch point {
    case .after(let delay):
      usleep(useconds_t(delay * 1_000_000))
    case .whenLarger(let file, let size):
      while process.isRunning && fileSize(file) <= size { usleep(1_000) }
    }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    if process.terminationReason == .uncaughtSignal {
      #expect(process.terminationStatus == SIGKILL)
      return true
    }
    #expect(process.terminationStatus == 0, "\(arguments.prefix(2)) failed on its own")
    return false
  }

  /// The size of a file in bytes, or -1 when there is none.
  static func fileSize(_ path: String) -> Int {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : -1
  }

  /// The size of the largest file in `directory` whose name starts with `prefix`, or -1.
  static func largestFile(in directory: String, prefix: String) -> Int {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.filter { $0.hasPrefix(prefix) && !$0.hasSuffix("-journal") }
      .map { fileSize(directory + "/" + $0) }.max() ?? -1
  }

  @Test func aKilledLargeWriteLeavesTheOldOrTheNewState() throws {
    var generator = SeededGenerator(fallback: 20_250_501)
    let seed = generator.seed
    let sandbox = try ProcessSandbox()
    expectSuccess(
      try sandbox.run(
        "sql", "--write",
        "CREATE TABLE evidence (id INTEGER PRIMARY KEY, note TEXT NOT NULL) STRICT"
      ), "create evidence")
    // Calibrate: one uninterrupted run gives the length to aim the kills at.
    let calibration = try sandbox.run("sql", "--write", Self.largeWrite)
    expectSuccess(calibration, "calibration write")
    var state = try Self.inspect(sandbox)
    #expect(state.evidence == Self.rowsPerWrite && state.batches == 1)
    // Random instants, then one aimed at the checkpoint after the commit: in WAL mode only a
    // checkpoint writes the main file, and only committed pages, so the moment it grows the
    // transaction has committed and the kill must leave the new state.
    var points = Self.killDelays(
      count: Self.kills, length: calibration.seconds, generator: &generator
    )
    .map(KillPoint.after)
    points.append(.whenLarger(file: sandbox.databasePath, than: -2))
    var killed = 0
    var outcomes: [String] = []
    var next = 0
    while next < points.count {
      var point = points[next]
      next += 1
      if case .whenLarger = point {
        point = .whenLarger(file: sandbox.databasePath, than: Self.fileSize(sandbox.databasePath))
      }
      let before = state
      let landed = try Self.runAndKill(sandbox, ["sql", "--write", Self.largeWrite], at: point)
      if landed { killed += 1 }
      state = try Self.inspect(sandbox)
      let label = "seed \(seed), kill \(point)"
      #expect(state.integrity == ["ok"], "\(label)")
      #expect(state.danglingRows == 0, "\(label)")
      // Wholly before or wholly after: never some of the rows, never rows without their fruit.
      let wholeBefore = state.evidence == before.evidence && state.batches == before.batches
      let wholeAfter =
        state.evidence == before.evidence + Self.rowsPerWrite
        && state.batches == before.batches + 1
      #expect(wholeBefore || wholeAfter, "\(label): \(before) -> \(state)")
      #expect(landed || wholeAfter, "\(label): a run that finished must have committed")
      if case .whenLarger = point { #expect(wholeAfter, "\(label): killed after the commit") }
      outcomes.append("\(point): \(landed ? "killed" : "finished"), \(wholeAfter ? "new" : "old")")
      expectSuccess(try sandbox.run("check"), "check, \(label)")
      // Runs that got faster than the calibration finish before late kills: aim a few more
      // kills early in the run until enough have landed.
      if next == points.count && killed < Self.kills - 1 && points.count < Self.kills + 5 {
        let fraction = Double.random(in: 0.05..<0.5, using: &generator)
        points.append(.after(fraction * calibration.seconds))
      }
    }
    // Most kills must land mid-run, or the test proves nothing.
    #expect(killed >= Self.kills - 1, "seed \(seed): \(outcomes)")
    print(
      "CrashSafetyTests large write (seed \(seed), run \(Int(calibration.seconds * 1000)) ms): "
        + outcomes.joined(separator: "; "))
  }

  @Test func aKilledBackupLeavesNoDestinationOrACompleteOne() throws {
    var generator = SeededGenerator(fallback: 20_250_502)
    let seed = generator.seed
    let sandbox = try ProcessSandbox()
    // About 40 MB, so the page-by-page copy takes a while.
    let exhibits = 10_000
    expectSuccess(
      try sandbox.run(
        "sql", "--write",
        """
        CREATE TABLE exhibits (id INTEGER PRIMARY KEY, photo BLOB NOT NULL) STRICT;
        CREATE TABLE marks (attempt INTEGER NOT NULL) STRICT;
        WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < \(exhibits))
        INSERT INTO exhibits (photo) SELECT randomblob(4000) FROM c;
        """), "create exhibits")
    let backups = sandbox.directory.appendingPathComponent("backups").path
    try FileManager.default.createDirectory(atPath: backups, withIntermediateDirectories: false)
    let destination = backups + "/evidence.sqlite"
    // Calibrate on another path, so the destination starts absent.
    let calibrationPath = sandbox.directory.appendingPathComponent("calibration.sqlite").path
    let calibration = try sandbox.run("backup", calibrationPath)
    expectSuccess(calibration, "calibration backup")
    let copiedSize = Self.fileSize(calibrationPath)
    try FileManager.default.removeItem(atPath: calibrationPath)

    // With no DEST yet: random instants, then once the temporary copy is full size (while it is
    // checked, synced and renamed). Then one complete backup, and random instants again, now
    // over an existing DEST.
    enum Step {
      case kill(KillPoint)
      case complete
    }
    var steps = Self.killDelays(
      count: Self.kills, length: calibration.seconds, generator: &generator
    )
    .map { Step.kill(.after($0)) }
    steps.append(.kill(.whenLarger(file: "", than: copiedSize - 1)))
    steps.append(.complete)
    steps += Self.killDelays(count: 3, length: calibration.seconds, generator: &generator)
      .map { Step.kill(.after($0)) }

    var killed = 0
    var destinationMark: Int?  // the attempt whose copy DEST holds, once it exists
    var outcomes: [String] = []
    for (attempt, step) in steps.enumerated() {
      // Each attempt copies a source with one more mark, to tell an old DEST from a new one.
      try sandbox.connection().execute("INSERT INTO marks (attempt) VALUES (\(attempt))")
      let landed: Bool
      var label = "seed \(seed), attempt \(attempt)"
      switch step {
      case .complete:
        expectSuccess(try sandbox.run("backup", destination), "\(label): complete backup")
        landed = false
        label += ", complete"
      case .kill(.whenLarger(_, let size)):
        // Poll the temporary file beside DEST (its name carries the pid and a random number).
        let process = try sandbox.start(["backup", destination])
        while process.isRunning
          && Self.largestFile(in: backups, prefix: ".evidence.sqlite.tmp-") < size
        {
          usleep(500)
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        landed = process.terminationReason == .uncaughtSignal
        label += ", kill when the copy is full size"
      case .kill(let point):
        landed = try Self.runAndKill(sandbox, ["backup", destination], at: point)
        label += ", kill \(point)"
      }
      if landed { killed += 1 }
      guard FileManager.default.fileExists(atPath: destination) else {
        #expect(destinationMark == nil, "\(label): a complete DEST disappeared")
        #expect(landed, "\(label): a finished backup left no DEST")
        outcomes.append("\(label): killed, DEST absent")
        continue
      }
      // Present: a complete, self-contained database with every row.
      let copy = try Connection(path: destination, mode: .readOnly)
      #expect(try copy.integrityCheck() == ["ok"], "\(label)")
      #expect(try copy.scalar("PRAGMA journal_mode")?.textValue == "delete", "\(label)")
      #expect(
        try copy.scalar("SELECT count(*) FROM exhibits")?.integerValue == Int64(exhibits),
        "\(label)")
      #expect(try copy.scalar("SELECT count(*) FROM animals")?.integerValue == 10, "\(label)")
      let mark = Int(try copy.scalar("SELECT max(attempt) FROM marks")?.integerValue ?? -1)
      #expect(mark == attempt || mark == destinationMark, "\(label): DEST holds mark \(mark)")
      #expect(landed || mark == attempt, "\(label): a finished backup must be the new copy")
      destinationMark = mark
      outcomes.append(
        "\(label): \(landed ? "killed" : "finished"), "
          + (mark == attempt ? "new DEST" : "old DEST"))
    }
    #expect(destinationMark != nil, "the complete backup left no DEST")
    // Nothing but DEST and the temporary files of killed runs is beside DEST, and no temporary
    // file carries DEST's name.
    let entries = try FileManager.default.contentsOfDirectory(atPath: backups).sorted()
    let leftovers = entries.filter { $0 != "evidence.sqlite" }
    for leftover in leftovers {
      #expect(leftover.hasPrefix(".evidence.sqlite.tmp-"), "unexpected file \(leftover)")
    }
    #expect(
      !entries.contains("evidence.sqlite-wal") && !entries.contains("evidence.sqlite-journal"))
    #expect(killed >= Self.kills - 2, "seed \(seed): \(outcomes)")
    print(
      "CrashSafetyTests backup (seed \(seed), run \(Int(calibration.seconds * 1000)) ms): "
        + outcomes.joined(separator: "; ") + "; left beside DEST: \(leftovers)")
  }

  /// Ctrl-C (SIGINT) or `kill` (SIGTERM) during `backup` exits 130 and removes the temporary
  /// file; if the copy had already finished, DEST is complete. Either way nothing is left over.
  @Test(arguments: [SIGINT, SIGTERM])
  func anInterruptedBackupLeavesNoTemporaryFile(signalNumber: Int32) throws {
    let sandbox = try ProcessSandbox()
    let padded = try sandbox.run(
      "sql", "--write",
      """
      CREATE TABLE pad(b BLOB);
      WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 20000)
      INSERT INTO pad SELECT randomblob(4000) FROM c;
      """)
    #expect(padded.status == 0)
    let destination = sandbox.directory.appendingPathComponent("interrupted.sqlite").path
    var stops = 0
    for delay: UInt32 in [20_000, 60_000, 150_000] {
      unlink(destination)
      let process = try sandbox.makeProcess(["backup", destination], environment: [:])
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      usleep(delay)
      kill(process.processIdentifier, signalNumber)
      process.waitUntilExit()
      // Exit 0 (the copy had finished), 130 (stopped), or the signal itself when it arrived
      // before the handler was installed (during start-up, before any file was created).
      let stopped = process.terminationReason == .uncaughtSignal || process.terminationStatus == 130
      if stopped { stops += 1 }
      #expect(
        process.terminationStatus == 0 || stopped,
        "status \(process.terminationStatus) after \(delay) us")
      let leftovers = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path)
        .filter { $0.contains(".tmp-") }
      #expect(leftovers.isEmpty, "\(leftovers)")
      if process.terminationStatus == 0 {
        let copy = try Connection(path: destination, mode: .readOnly)
        #expect(try copy.integrityCheck() == ["ok"])
      } else {
        #expect(access(destination, F_OK) != 0)
      }
    }
    // An 80 MB copy takes far longer than 20 ms: the signal must have stopped at least one.
    #expect(stops > 0, "no run was stopped by signal \(signalNumber)")
  }
}
