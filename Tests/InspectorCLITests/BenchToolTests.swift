import CaseStore
import Foundation
import SQLiteKit
import Testing

/// The benchmark's tools (README "Performance") at a tiny size: `inspector-bench`'s history
/// workloads, its dataset with history and its CSV, and `scripts/bench-history.sh` on them.
/// Only that they run and print their figures with their targets; the figures themselves are
/// the benchmark's business.
@Suite(.tags(.slow, .processes), .skippedInFastSet) struct BenchToolTests {
  /// The built `inspector-bench`, next to the built `inspector`.
  static func benchPath() throws -> String {
    let path = URL(fileURLWithPath: try OperationsFixture.inspectorPath())
      .deletingLastPathComponent().appendingPathComponent("inspector-bench").path
    try #require(FileManager.default.isExecutableFile(atPath: path), "no built inspector-bench")
    return path
  }

  /// Runs `inspector-bench arguments` with its cache and scratch files in `directory`.
  static func bench(_ arguments: [String], in directory: URL) throws -> ChildProcess.Result {
    var environment = TestDirectory.environment(in: directory, childProcess: true)
    environment["INSPECTOR_BENCH_CACHE"] = directory.appendingPathComponent("cache").path
    environment["TMPDIR"] = directory.path
    return try ChildProcess(
      try benchPath(), arguments, environment: environment, directory: directory
    ).wait()
  }

  /// Each JSON line of `output` as an object, by its `workload`.
  static func objects(_ output: String) throws -> [String: [String: Any]] {
    var objects: [String: [String: Any]] = [:]
    for line in lines(output) where !line.isEmpty {
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      objects[try #require(object["workload"] as? String)] = object
    }
    return objects
  }

  /// The rows of the documented tables that `suspects` generated suspects make once imported:
  /// what removing all of them changes.
  static func rows(ofImported csv: String, in directory: URL) throws -> Int {
    let database = try CaseDatabase(
      path: directory.appendingPathComponent("count.sqlite").path, access: .create)
    try database.write(nil) { db in
      for fruit in SeedCase.fruits { try db.fruits.add(name: fruit.name, color: fruit.color) }
      _ = try db.importCase(CaseTransfer.parse(Array(csv.utf8)), onConflict: .fail, dryRun: false)
    }
    var rows = 0
    for table in ["animals", "favorite_fruits", "alibis", "sleep_schedules", "suspicion_levels"] {
      rows += Int(
        try database.connection.scalar("SELECT count(*) FROM \(table)")?.integerValue ?? 0)
    }
    return rows
  }

  /// update, delete and load print their history figures with the targets, as JSON and as
  /// lines; insert's history line gains its targets and bytes a change.
  @Test func historyWorkloadsPrintTheirFiguresAndTargets() throws {
    let directory = try TestDirectory.create(prefix: "bench-workloads")
    defer { try? FileManager.default.removeItem(at: directory) }
    let workloads = ["insert", "update", "delete", "load"].flatMap { ["--workload", $0] }
    let json = try Self.bench(
      ["--suspects", "40", "--repetitions", "1", "--json"] + workloads, in: directory)
    // 3: a target missed (today's history misses them); 0 once every one holds.
    #expect([0, 3].contains(json.status), "\(json.standardError)")
    let objects = try Self.objects(json.standardOutput)
    #expect(
      Set(objects.keys)
        == ["insert", "insert-history", "update-history", "delete-history", "load-history"])
    let csv = try Self.bench(["--csv", "40"], in: directory).standardOutput
    let deleted = try Self.rows(ofImported: csv, in: directory)
    // insert: 40 suspects and their 3 favourites each; update: a level and an alibi each;
    // delete: every row of every suspect, the cascaded ones included.
    let expectedChanges = ["insert": 160, "update": 80, "delete": deleted]
    for (workload, changes) in expectedChanges {
      let object = try #require(objects[workload + "-history"])
      #expect(object["n"] as? Int == changes, "\(workload)")
      #expect(object["target"] as? Double == 1.5)
      #expect(object["moonshot"] as? Double == 1.2)
      #expect(object["bytes_target"] as? Double == 70)
      #expect((object["ratio"] as? Double ?? 0) > 0)
      // The history adds bytes to the file for every workload, removals included.
      #expect((object["bytes_per_change"] as? Double ?? 0) > 0, "\(workload)")
    }
    #expect(deleted > 160)
    let load = try #require(objects["load-history"])
    #expect(load["n"] as? Int == 40)
    #expect(load["target"] as? Double == 2)
    // At 40 suspects the history's rows (one small row a change) can fit in the pages its
    // tables and indexes already hold, so the file need not grow.
    #expect(
      (load["with_history_bytes"] as? Int ?? 0) >= (load["without_history_bytes"] as? Int ?? .max))
    #expect((load["size_ratio"] as? Double ?? 0) >= 1)

    let text = try Self.bench(
      ["--suspects", "40", "--repetitions", "1", "--workload", "update", "--workload", "load"],
      in: directory)
    #expect([0, 3].contains(text.status), "\(text.standardError)")
    let printed = lines(text.standardOutput)
    let update = try #require(printed.first { $0.hasPrefix("update") })
    #expect(update.hasPrefix("update           40  history: "))
    #expect(update.contains(" µs a change (80 changes: "))
    #expect(update.contains("(target <= 1.50 "))
    #expect(update.contains("; moonshot <= 1.20 "))
    #expect(update.contains(" bytes a change (target <= 70 "))
    let loadLine = try #require(printed.first { $0.hasPrefix("load") })
    #expect(loadLine.hasPrefix("load             40  history, plain SQL: "))
    #expect(loadLine.components(separatedBy: "(target <= 2.00 ").count == 3)
  }

  /// `--csv N --from M` prints suspects M+1...M+N as export writes them.
  @Test func csvPrintsTheGeneratedSuspects() throws {
    let directory = try TestDirectory.create(prefix: "bench-csv")
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try Self.bench(["--csv", "2", "--from", "2000"], in: directory)
    #expect(result.status == 0)
    let printed = lines(result.standardOutput)
    #expect(
      printed
        == [
          "name,species,paw_size,emoji,favorite_fruits,alibi,sleep,wake,suspicion_level",
          "Vera,Species 2001,small,\u{1F54A}\u{FE0F},\"[\"\"Hauer Pippin Apple\"\",\"\"Kaki Fuyu "
            + "Persimmon\"\",\"\"Christmas Berry\"\"]\",,,,0.03",
          "Sami,Species 2002,small,\u{1F986},\"[\"\"Elstar Apple\"\",\"\"Elephant Heart "
            + "Plum\"\",\"\"Tompkins King Apple\"\"]\",,,,0.08",
        ])
  }

  /// The dataset with history holds the seed, the import (the as-of point) and ten later change
  /// sets; `check` finds it whole; `list --as-of` the point shows the suspects removed since;
  /// scripts/bench-history.sh prints each of its lines with its target.
  @Test func historyDatasetAndScript() throws {
    let directory = try TestDirectory.create(prefix: "bench-history")
    defer { try? FileManager.default.removeItem(at: directory) }
    let built = try Self.bench(["--dataset", "2000", "--history"], in: directory)
    #expect(built.status == 0, "\(built.standardError)")
    let path = try #require(lines(built.standardOutput).first)
    #expect(path.hasSuffix("-history.sqlite"))
    let database = try CaseDatabase(path: path, access: .readOnly)
    let notes = try database.read { _ in
      let statement = try database.connection.prepare(
        "SELECT note FROM history_change_sets ORDER BY id")
      var notes: [String] = []
      while let row = try statement.nextRow() { notes.append(try row.text("note")) }
      return notes
    }
    #expect(
      notes
        == ["bench: the seed", "bench: as-of point"] + (1...10).map { "bench: later changes \($0)" }
    )
    let suspects = try database.read { try $0.suspects.all() }
    // Removed later: 1000 and 2000 (multiples of 1,000).
    #expect(suspects.count == 1998)
    #expect(!suspects.contains { $0.id == 1000 || $0.id == 2000 })
    #expect(suspects.allSatisfy { $0.species == "Species \($0.id)" })
    let shown = try #require(suspects.first { $0.id == 1501 })
    #expect(shown.alibi == "Later story 1 of suspect 1501")

    var environment = TestDirectory.environment(in: directory, childProcess: true)
    environment["INSPECTOR_BENCH_CACHE"] = directory.appendingPathComponent("cache").path
    environment["TMPDIR"] = directory.path
    environment["HISTORY_RUNS"] = "1"
    environment["SHOW_RUNS"] = "1"
    environment["UNDO_SUSPECTS"] = "20"
    let script = try ChildProcess(
      "/bin/bash",
      [
        ScriptTests.scripts.appendingPathComponent("bench-history.sh").path,
        try OperationsFixture.inspectorPath(), try Self.benchPath(), "2000",
      ], environment: environment, directory: directory
    ).wait()
    // 3: a target missed (a debug build, today's history); 1 would be a command that failed.
    #expect([0, 3].contains(script.status), "\(script.standardOutput)\(script.standardError)")
    let printed = lines(script.standardOutput)
    #expect(printed.first?.hasSuffix("as of change set 2 (1 runs each, interleaved)") == true)
    let expected = [
      ("list --as-of vs list", "(target <= 3)"),
      ("list --as-of", "peak memory (target < 65536)"),
      ("show \"species 1501\" --as-of", "(target < 50 ms)"),
      ("check vs integrity_check", "(target <= 1.25)"),
      ("check", "peak memory (target < 65536)"),
      ("undo of an import of 20 suspects vs the import", "(target <= 1.5)"),
      ("undo of an import of 20 suspects", "peak memory (target < 65536)"),
    ]
    for (name, target) in expected {
      #expect(
        printed.contains {
          $0.hasPrefix(name + " ") && $0.contains(target)
            && ($0.hasSuffix("  PASS") || $0.hasSuffix("  FAIL"))
        }, "\(name)")
    }
    #expect(printed.filter { $0.hasSuffix("  PASS") || $0.hasSuffix("  FAIL") }.count == 7)
  }
}
