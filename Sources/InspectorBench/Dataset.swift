import CSQLite
import CaseStore
import Foundation

/// Case files of generated suspects, built once per (number of suspects, data version, schema
/// version) and cached in a temporary directory, since a million suspects take a while.
///
/// Each holds the 19 seed fruits, suspects 1...n of ``SuspectGenerator`` with their interviews,
/// and one bulletin like the seed one (incident 1: a Pink Pearl Apple, paw clue large, 09:41);
/// a ``DatasetKind`` other than the friendly one changes the suspects, adds a fruit nobody
/// favours, and makes incident 1 its hard case.
///
/// The suspects are loaded with every trigger of every table dropped, the case history's
/// included (and created again from their own SQL text after the load), so a dataset carries
/// no per-row history: its history holds only the fruits and the bulletin made before the load,
/// and `inspector check` reports the suspects as rows the history does not hold. The file name
/// says so (`-nohistory`), so datasets cached before this rule are not reused.
enum Dataset {
  static let incidentID: Int64 = 1

  /// Where cached datasets live: `$INSPECTOR_BENCH_CACHE`, else `$TMPDIR/inspector-bench`.
  static var directory: String {
    if let path = ProcessInfo.processInfo.environment["INSPECTOR_BENCH_CACHE"], !path.isEmpty {
      return path
    }
    return NSTemporaryDirectory() + "/inspector-bench"
  }

  /// The path of the dataset of `kind` with `count` suspects, building it first when missing.
  static func path(
    suspects count: Int, kind: DatasetKind = .friendly, log: (String) -> Void
  ) throws -> String {
    let name =
      "suspects-\(count)" + (kind == .friendly ? "" : "-\(kind.rawValue)")
      + "-data\(SuspectGenerator.dataVersion)"
      + "-schema\(CaseDatabase.migrator.latestVersion)-nohistory.sqlite"
    return try cached(name, "\(count) suspects", log: log) { partial in
      try build(at: partial, suspects: count, kind: kind)
    }
  }

  /// The path of the cached file `name`, built first when missing: by `build` into a
  /// `.partial` file beside it (any left by a killed run removed first), then moved into place,
  /// so a half-built dataset is never taken for a whole one. `what` says what it holds, for the
  /// log.
  static func cached(
    _ name: String, _ what: String, log: (String) -> Void, build: (String) throws -> Void
  ) throws -> String {
    let path = directory + "/" + name
    if FileManager.default.fileExists(atPath: path) { return path }
    try FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true)
    let partial = path + ".partial"
    for suffix in ["", "-wal", "-shm", "-journal"] {
      try? FileManager.default.removeItem(atPath: partial + suffix)
    }
    log("building \(path) (\(what), once)...")
    let start = ContinuousClock.now
    try build(partial)
    try FileManager.default.moveItem(atPath: partial, toPath: path)
    log("built in \(seconds(since: start)) s")
    return path
  }

  /// A new case file at `path`: schema, seed fruits, the bulletin, then the suspects through
  /// the C API in one transaction with the journal off (a file nobody else sees yet).
  static func build(at path: String, suspects count: Int, kind: DatasetKind) throws {
    do {
      let database = try CaseDatabase(path: path, access: .create)
      try database.write(nil) { db in
        for fruit in SeedCase.fruits {
          try db.fruits.add(name: fruit.name, color: fruit.color)
        }
        if kind != .friendly {
          let fruit = DatasetKind.unfavouredFruit
          try db.fruits.add(name: fruit.name, color: fruit.color)
        }
        try db.incidents.add(kind.incident)
      }
    }
    let raw = RawSQLite(path: path)
    raw.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -524288")
    raw.execute("BEGIN")
    // Every trigger of every table is dropped for the load and created again from its own SQL
    // text: the triggers on animals only fill in and mark keys a plain INSERT leaves out (every
    // row here carries its keys), the one on suspicion_levels mirrors the level (set below in
    // one statement), and the history's would record every row of the load.
    let triggers = raw.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'trigger'")
    var saved: [(name: String, sql: String)] = []
    while sqlite3_step(triggers) == SQLITE_ROW {
      saved.append((columnText(triggers, 0), columnText(triggers, 1)))
    }
    sqlite3_finalize(triggers)
    for trigger in saved { raw.execute("DROP TRIGGER \(trigger.name)") }
    do {
      let writer = RawSuspectWriter(raw)
      for n in stride(from: 1, through: count, by: 1) {
        writer.write(kind.suspect(n))
      }
    }
    raw.execute(
      """
      UPDATE animals SET suspicion_level =
        (SELECT level FROM suspicion_levels WHERE animal_id = animals.id)
      WHERE id IN (SELECT animal_id FROM suspicion_levels)
      """)
    for trigger in saved { raw.execute(trigger.sql) }
    raw.execute("COMMIT")
    raw.execute("PRAGMA journal_mode = WAL")
  }
}

extension Dataset {
  /// Suspects per imported change set of a history dataset.
  static let importChunk = 100_000
  /// The note of a history dataset's last import, the point before its later change sets.
  static let asOfPointNote = "bench: as-of point"
  /// The later change sets of a history dataset.
  static let laterChangeSets = 10

  /// The path of the dataset of `count` friendly suspects WITH their history, building it
  /// first when missing (`-history` in its name).
  ///
  /// Built through inspector's own writes, so its history is what inspector records: the seed
  /// fruits and the bulletin, then the suspects imported from CSV in change sets of
  /// ``importChunk`` (the last one's note is ``asOfPointNote``), then ``laterChangeSets``
  /// change sets that each give about one suspect in a thousand a new level and alibi (the
  /// first also suspect `count * 3 / 4 + 1`, the one `show` looks up) and remove about one in
  /// ten thousand (ids that are multiples of 1,000, which none changes). Suspect n has id n.
  static func historyPath(suspects count: Int, log: (String) -> Void) throws -> String {
    let name =
      "suspects-\(count)-data\(SuspectGenerator.dataVersion)"
      + "-schema\(CaseDatabase.migrator.latestVersion)-history.sqlite"
    return try cached(name, "\(count) suspects with their history", log: log) { partial in
      try buildWithHistory(at: partial, suspects: count, log: log)
      _ = ScratchCaseFiles.bytes(partial, vacuum: false)  // the WAL into the file, then moved
    }
  }

  /// A new case file at `path` of `count` suspects with their history (``historyPath``).
  static func buildWithHistory(at path: String, suspects count: Int, log: (String) -> Void)
    throws
  {
    let database = try CaseDatabase(path: path, access: .create)
    let bench = "inspector-bench"
    try database.write(try ChangeAttribution(actor: bench, note: "bench: the seed")) { db in
      for fruit in SeedCase.fruits { try db.fruits.add(name: fruit.name, color: fruit.color) }
      try db.incidents.add(DatasetKind.friendly.incident)
    }
    for first in stride(from: 1, through: count, by: importChunk) {
      let last = min(first + importChunk - 1, count)
      let csv = ImportWorkload.csvText((first...last).map { SuspectGenerator.suspect($0) })
      let note = last == count ? asOfPointNote : "bench: suspects \(first)-\(last)"
      let report = try database.write(try ChangeAttribution(actor: bench, note: note)) {
        try $0.importCase(CaseTransfer.parse(Array(csv.utf8)), onConflict: .fail, dryRun: false)
      }
      guard report.suspects.added == last - first + 1 else {
        throw BenchFailure(description: "history dataset: suspects \(first)-\(last) not all added")
      }
      log("history dataset: suspects \(first)-\(last) imported")
    }
    let shown = Int64(count * 3 / 4 + 1)
    guard try database.read({ try $0.suspects.find("species \(shown)") }).id == shown else {
      throw BenchFailure(description: "history dataset: suspect n does not have id n")
    }
    for set in 1...laterChangeSets {
      let note = "bench: later changes \(set)"
      try database.write(try ChangeAttribution(actor: bench, note: note)) { db in
        var changed = stride(from: Int64(set * 97 % 1000 + 1), through: Int64(count), by: 1000)
          .map { $0 }
        if set == 1 { changed.append(shown) }
        for id in changed {
          try db.suspects.setSuspicionLevel(
            id: id, SuspicionLevel(Double((Int(id) + set * 37) % 101) / 100)!)
          try db.suspects.setAlibi(id: id, "Later story \(set) of suspect \(id)")
        }
        // Multiples of 1,000, which no set changes (nor the shown one: its id ends in 1).
        for id in stride(from: Int64(set * 1000), through: Int64(count), by: 10_000) {
          try db.suspects.remove(id: id)
        }
      }
    }
  }
}

/// Seconds elapsed since `start`.
func seconds(since start: ContinuousClock.Instant) -> Double {
  let elapsed = ContinuousClock.now - start
  return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
}
