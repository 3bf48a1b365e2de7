import Foundation
import SQLiteKit
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Hostile input through the built binary (README "Guarantees"): every value is stored and read
/// back exactly, or refused with its documented exit code and exactly one `inspector: error:`
/// line, and no input makes the process die of a signal (a Swift runtime trap included).
@Suite(.tags(.slow, .processes, .largeScale), .skippedInFastSet) struct HostileInputTests {
  /// Text meant to break out of SQL, shell or pattern quoting.
  static let injections = [
    "Robert'); DROP TABLE animals;--",
    "\"; DELETE FROM fruits; --",
    "' OR '1'='1",
    "x' || (SELECT group_concat(name) FROM animals) || '",
    "50% of_the \\ [*?] GLOB",
    ":name @name $name ?1 ?",
    "$(touch /tmp/pwned); `id` # ;",
    "-- a comment; /* and */ more",
  ]

  /// `show <reference> --json` as an object.
  static func suspect(_ sandbox: ProcessSandbox, _ reference: String) throws -> [String: Any] {
    let run = try sandbox.run("show", reference, "--json")
    expectSuccess(run, "show \(reference.prefix(20))")
    return try jsonObject(run.standardOutput)
  }

  /// The `id` of a JSON object printed by an `add` command.
  static func id(_ run: ProcessSandbox.Run) throws -> Int {
    try #require((try jsonObject(run.standardOutput)["id"] as? NSNumber)?.intValue)
  }

  /// Every command that stores `name` as a name or species: a new suspect's name, then its
  /// species, the crow's new name, then species, and a new fruit's name.
  static func namingCommands(_ name: String) -> [[String]] {
    [
      ["animal", "add", "--name", name, "--species", "Heron", "--paw", "small"],
      ["animal", "add", "--name", "Hal", "--species", name, "--paw", "small"],
      ["animal", "edit", "crow", "--name", name],
      ["animal", "edit", "crow", "--species", name],
      ["fruit", "add", name, "--color", "red"],
    ]
  }

  // MARK: - Lengths and blanks

  @Test func tenThousandCharactersAreStoredAndOneMoreIsRefused() throws {
    let sandbox = try ProcessSandbox()
    let long = String(repeating: "N", count: 10_000)
    let accented = String(repeating: "é", count: 10_000)
    let tooLong = String(repeating: "M", count: 10_001)
    let added = try sandbox.run(
      ["animal", "add", "--name", long, "--species", accented, "--paw", "small", "--json"])
    expectSuccess(added, "animal add (10,000 characters)")
    let stored = try Self.suspect(sandbox, "\(try Self.id(added))")
    #expect(stored["name"] as? String == long)
    #expect(stored["species"] as? String == accented)
    let fruit = try sandbox.run(["fruit", "add", long, "--color", "red", "--json"])
    expectSuccess(fruit, "fruit add (10,000 characters)")
    #expect(try jsonObject(fruit.standardOutput)["name"] as? String == long)

    let before = try sandbox.run("list", "--json").standardOutput
    for arguments in Self.namingCommands(tooLong) {
      let run = try sandbox.run(arguments)
      expectRefusal(run, [65], "\(arguments.prefix(3)) (10,001 characters)")
      #expect(run.standardError.count < 500, "the error line quotes a prefix, not the value")
    }
    #expect(try sandbox.run("list", "--json").standardOutput == before)
  }

  @Test(arguments: ["", " ", "   ", "\t", "\n", " \n\t ", "\u{3000}", "\u{00A0}"])
  func blankNamesAreRefused(_ blank: String) throws {
    let sandbox = try ProcessSandbox()
    let before = try sandbox.run("list", "--json").standardOutput
    for arguments in Self.namingCommands(blank) {
      expectRefusal(
        try sandbox.run(arguments), [65], "\(arguments.prefix(3)) \(blank.debugDescription)")
    }
    #expect(try sandbox.run("list", "--json").standardOutput == before)
    #expect(try jsonArray(try sandbox.run("fruit", "list", "--json").standardOutput).count == 19)
  }

  // MARK: - Quotes, semicolons and SQL

  @Test func quotesSemicolonsAndSQLAreStoredExactlyInEveryTextField() throws {
    let sandbox = try ProcessSandbox()
    for (index, text) in Self.injections.enumerated() {
      let label = "injection \(index)"
      // `--opt=value` and `--` keep a value that starts with dashes from reading as an option.
      let added = try sandbox.run([
        "animal", "add", "--name=\(text)", "--species=Species \(index) \(text)", "--paw", "small",
        "--emoji=\(text)", "--json",
      ])
      expectSuccess(added, label)
      let id = "\(try Self.id(added))"
      expectSuccess(try sandbox.run(["alibi", id, "--", text]), "alibi, \(label)")
      let fruitName = "Fruit \(index) \(text)"
      expectSuccess(try sandbox.run(["fruit", "add", "--color", "red", "--", fruitName]), label)
      let incident = try sandbox.run([
        "incident", "add", "--fruit=\(fruitName)", "--at", "2025-05-01T03:15", "--notes=\(text)",
        "--json",
      ])
      expectSuccess(incident, "incident add, \(label)")

      let stored = try Self.suspect(sandbox, id)
      #expect(stored["name"] as? String == text, "\(label)")
      #expect(stored["species"] as? String == "Species \(index) \(text)", "\(label)")
      #expect(stored["emoji"] as? String == text, "\(label)")
      #expect(stored["alibi"] as? String == text, "\(label)")
      // Looked up by its species, too.
      #expect(try Self.suspect(sandbox, "Species \(index) \(text)")["id"] as? Int == Int(id))
      let shown = try sandbox.run("incident", "show", "\(try Self.id(incident))", "--json")
      expectSuccess(shown, "incident show, \(label)")
      let bulletin = try jsonObject(shown.standardOutput)
      #expect(bulletin["notes"] as? String == text, "\(label)")
      #expect(bulletin["fruit"] as? String == fruitName, "\(label)")
      // Bound parameters come back as the same text.
      let echoed = try sandbox.run(
        "sql", "SELECT :value AS v", "--param", "value=\(text)", "--json")
      expectSuccess(echoed, "sql --param, \(label)")
      #expect(try jsonArray(echoed.standardOutput).first?["v"] as? String == text, "\(label)")
    }
    let written = try sandbox.run(
      "sql", "--write", "INSERT INTO fruits (name, color) VALUES (:name, :color)",
      "--param", "name=\(Self.injections[0])", "--param", "color=red")
    expectSuccess(written, "sql --write --param")
    let names = try jsonArray(try sandbox.run("fruit", "list", "--json").standardOutput)
      .compactMap { $0["name"] as? String }
    #expect(names.count == 19 + Self.injections.count + 1)
    #expect(names.filter { $0 == Self.injections[0] }.count == 1)
    // Nothing was dropped, deleted or widened: every table and row is where it was.
    let suspects = try jsonArray(try sandbox.run("list", "--json").standardOutput)
    #expect(suspects.count == 10 + Self.injections.count)
    #expect(suspects.first?["name"] as? String == "Fabrizio")
    #expect(!FileManager.default.fileExists(atPath: "/tmp/pwned"))
    expectSuccess(try sandbox.run("check"), "check")
  }

  // MARK: - NUL bytes

  @Test func interiorNulBytesWrittenByPlainSQLAreReadBackWhole() throws {
    let sandbox = try ProcessSandbox()
    expectSuccess(
      try sandbox.run(
        "sql", "--write",
        """
        INSERT INTO animals (id, name, species, paw_size, emoji)
          VALUES (100, 'Nu' || char(0) || 'll', 'Zero' || char(0) || 'bug', 'small',
                  'x' || char(0) || 'y');
        INSERT INTO alibis (animal_id, statement) VALUES (100, 'home' || char(0) || 'alone');
        INSERT INTO fruits (id, name, color) VALUES (100, 'Nul' || char(0) || 'fruit', 'red');
        INSERT INTO favorite_fruits (animal_id, fruit_id, position) VALUES (100, 100, 0);
        INSERT INTO incidents (id, fruit_id, occurred_at, notes)
          VALUES (100, 100, '2025-05-01T03:15', 'bite' || char(0) || 'marks');
        """), "sql --write with char(0)")
    let expected: [String: String] = [
      "name": "Nu\u{0}ll", "species": "Zero\u{0}bug", "emoji": "x\u{0}y",
      "alibi": "home\u{0}alone",
    ]
    // show --json: the escaped NUL and the text after it.
    let show = try sandbox.run("show", "100", "--json")
    expectSuccess(show, "show 100 --json")
    #expect(show.standardOutput.contains(#""name": "Nu\u0000ll""#))
    #expect(show.standardOutput.contains(#""alibi": "home\u0000alone""#))
    let shown = try jsonObject(show.standardOutput)
    for (key, value) in expected { #expect(shown[key] as? String == value, "show \(key)") }
    #expect(shown["favorite_fruits"] as? [String] == ["Nul\u{0}fruit"])
    // list --json.
    let list = try sandbox.run("list", "--json")
    expectSuccess(list, "list --json")
    #expect(list.standardOutput.contains(#""species": "Zero\u0000bug""#))
    let listed = try #require(try jsonArray(list.standardOutput).first { $0["id"] as? Int == 100 })
    for (key, value) in expected { #expect(listed[key] as? String == value, "list \(key)") }
    // Fruits, incidents and ad-hoc SQL.
    let fruits = try sandbox.run("fruit", "list", "--json")
    #expect(fruits.standardOutput.contains(#""name": "Nul\u0000fruit""#))
    let incident = try sandbox.run("incident", "show", "100", "--json")
    expectSuccess(incident, "incident show 100")
    #expect(try jsonObject(incident.standardOutput)["notes"] as? String == "bite\u{0}marks")
    #expect(try jsonObject(incident.standardOutput)["fruit"] as? String == "Nul\u{0}fruit")
    let sql = try sandbox.run("sql", "SELECT name FROM animals WHERE id = 100", "--json")
    #expect(try jsonArray(sql.standardOutput).first?["name"] as? String == "Nu\u{0}ll")
    // Every other format and command copes, and later writes re-fold the row's keys.
    for arguments in [
      ["list"], ["list", "--format", "csv"], ["show", "100"], ["rank", "--all"],
      ["incident", "list"], ["alibi", "100"], ["fruit", "list", "--format", "csv"],
      ["rank", "--incident", "100", "--explain"],
    ] {
      expectSuccess(try sandbox.run(arguments), "\(arguments)")
    }
    expectSuccess(
      try sandbox.run("animal", "add", "--name", "Heidi", "--species", "Heron", "--paw", "large"),
      "animal add after NUL rows")
    expectSuccess(try sandbox.run("animal", "edit", "100", "--paw", "medium"), "edit 100")
    #expect(try Self.suspect(sandbox, "100")["name"] as? String == "Nu\u{0}ll")
    expectSuccess(try sandbox.run("check"), "check")
  }

  // MARK: - Numbers

  @Test func nonFiniteAndOutOfRangeNumbersAreRefused() throws {
    let sandbox = try ProcessSandbox()
    expectSuccess(try sandbox.run("suspect", "crow", "0.25"), "suspect crow 0.25")
    let before = try sandbox.run("list", "--json").standardOutput
    let incidentsBefore = try sandbox.run("incident", "list", "--json").standardOutput
    for level in ["NaN", "nan", "inf", "+inf", "Infinity", "1e309", "-1e309", "1.0000001"] {
      expectRefusal(try sandbox.run("suspect", "crow", level), [65], "suspect crow \(level)")
    }
    // A leading dash reads as an option unless `--` ends them: a usage error then.
    for level in ["-inf", "-nan"] {
      expectRefusal(try sandbox.run("suspect", "crow", level), [64], "suspect crow \(level)")
      expectRefusal(
        try sandbox.run("suspect", "crow", "--", level), [65], "suspect crow -- \(level)")
    }
    for (latitude, longitude) in [
      ("NaN", "0"), ("0", "nan"), ("inf", "0"), ("0", "-inf"), ("1e309", "0"), ("0", "-1e309"),
      ("90.0000001", "0"), ("0", "180.5"), ("-91", "0"), ("Infinity", "Infinity"),
    ] {
      expectRefusal(
        try sandbox.run([
          "incident", "add", "--fruit", "Elstar Apple", "--at", "10:00", "--lat=\(latitude)",
          "--lon=\(longitude)",
        ]), [65], "incident add --lat=\(latitude) --lon=\(longitude)")
    }
    #expect(try sandbox.run("list", "--json").standardOutput == before)
    #expect(try sandbox.run("incident", "list", "--json").standardOutput == incidentsBefore)
  }

  @Test func negativeZeroIsStoredAsZero() throws {
    let sandbox = try ProcessSandbox()
    for level in ["-0", "-0.0", "-.0"] {
      expectSuccess(try sandbox.run("suspect", "crow", level), "suspect crow \(level)")
      let show = try sandbox.run("show", "crow", "--json")
      #expect(show.standardOutput.contains(#""suspicion_level": 0.0,"#), "\(level)")
    }
    let added = try sandbox.run([
      "incident", "add", "--fruit", "Elstar Apple", "--at", "10:00", "--lat=-0", "--lon=-0.0",
      "--json",
    ])
    expectSuccess(added, "incident add --lat=-0")
    #expect(added.standardOutput.contains(#""latitude": 0.0,"#))
    #expect(added.standardOutput.contains(#""longitude": 0.0,"#))
    expectSuccess(try sandbox.run("rank", "--incident", "\(try Self.id(added))"), "rank")
    // Ad-hoc SQL may compute any double: JSON stays valid (non-finite values print as null).
    let computed = try sandbox.run("sql", "SELECT 1e309 AS a, -1e309 AS b, -0.0 AS c", "--json")
    expectSuccess(computed, "sql 1e309")
    let row = try #require(try jsonArray(computed.standardOutput).first)
    #expect(row["a"] is NSNull && row["b"] is NSNull)
    #expect(number(row["c"]) == 0)
  }

  @Test func idsPastTwoToTheSixtyThreeAndNegativeIdsAreRefused() throws {
    let sandbox = try ProcessSandbox()
    let before = try sandbox.run("list", "--json").standardOutput
    let refusals: [([String], Set<Int32>)] = [
      (["show", "9223372036854775808"], [65]),
      (["show", "18446744073709551616"], [65]),
      (["show", "99999999999999999999999999999999999999"], [65]),
      (["show", "--", "-1"], [65]),
      (["show", "--", "-9223372036854775809"], [65]),
      (["show", "0"], [65]),
      (["incident", "show", "99999999999999999999"], [64]),
      (["incident", "show", "9223372036854775808"], [64]),
      (["incident", "show", "--", "-1"], [64]),
      (["incident", "show", "0"], [64]),
      (["rank", "--incident", "9223372036854775808"], [64]),
      (["rank", "--incident=-1"], [64]),
      (["rank", "--limit", "99999999999999999999"], [64]),
      (["rank", "--limit=-1"], [64]),
      (["rank", "--limit", "0"], [64]),
      (["suspect", "9223372036854775808", "0.5"], [65]),
      (["animal", "remove", "18446744073709551616"], [65]),
      (["alibi", "9223372036854775807", "home"], [65]),
      (["favorite", "add", "9223372036854775808", "Elstar Apple"], [65]),
      (["migrate", "up", "--to", "99999999999999999999"], [64, 65]),
      (["list", "--busy-timeout", "99999999999999999999"], [64]),
    ]
    for (arguments, statuses) in refusals {
      expectRefusal(try sandbox.run(arguments), statuses, "\(arguments)")
    }
    #expect(try sandbox.run("list", "--json").standardOutput == before)
    // The largest limit is fine: all ten suspects.
    let all = try sandbox.run("rank", "--limit", "9223372036854775807", "--json")
    expectSuccess(all, "rank --limit Int64.max")
    #expect(try jsonArray(all.standardOutput).count == 10)
  }

  @Test func rowsAtTheLargestIdStillLeaveRoomForNewOnes() throws {
    let sandbox = try ProcessSandbox()
    expectSuccess(
      try sandbox.run(
        "sql", "--write",
        """
        INSERT INTO animals (id, name, species, paw_size) VALUES
          (9223372036854775807, 'Max', 'Marmot', 'medium');
        INSERT INTO incidents (id, fruit_id, occurred_at) VALUES
          (9223372036854775807, 1, '2025-05-01T03:15');
        """), "insert rows at Int64.max")
    #expect(try Self.suspect(sandbox, "9223372036854775807")["species"] as? String == "Marmot")
    let incident = try sandbox.run("incident", "show", "9223372036854775807", "--json")
    expectSuccess(incident, "incident show Int64.max")
    // SQLite picks a free id when the largest is taken; nothing computes `max + 1` itself.
    let added = try sandbox.run(
      "animal", "add", "--name", "Nia", "--species", "Newt", "--paw", "small", "--json")
    expectSuccess(added, "animal add after Int64.max")
    let bulletin = try sandbox.run(
      "incident", "add", "--fruit", "Elstar Apple", "--at", "10:00", "--json")
    expectSuccess(bulletin, "incident add after Int64.max")
    expectSuccess(
      try sandbox.run("rank", "--incident", "9223372036854775807", "--json"), "rank Int64.max")
    expectSuccess(try sandbox.run("check"), "check")
  }

  // MARK: - Unicode

  @Test func speciesDifferingOnlyInCaseOrNormalizationAreOneSuspect() throws {
    let sandbox = try ProcessSandbox()
    let nfc = "\u{00C9}cureuil"  // Écureuil, precomposed
    let nfd = "E\u{0301}cureuil"  // Écureuil, E + combining acute
    let added = try sandbox.run(
      "animal", "add", "--name", "Squeaky", "--species", nfc, "--paw", "small", "--json")
    expectSuccess(added, "animal add Écureuil")
    let id = try Self.id(added)
    for other in ["\u{00E9}CUREUIL", "\u{00C9}CUREUIL", nfd, "e\u{0301}CUREUIL", "écureuil"] {
      expectRefusal(
        try sandbox.run("animal", "add", "--name", "Other", "--species", other, "--paw", "small"),
        [65], "animal add --species \(other.unicodeScalars.map(\.value))")
      // Every spelling finds the one suspect.
      #expect(try Self.suspect(sandbox, other)["id"] as? Int == id)
    }
    // Editing another suspect's species to a variant is refused as well.
    expectRefusal(
      try sandbox.run("animal", "edit", "crow", "--species", "\u{00E9}CUREUIL"), [65],
      "animal edit crow --species éCUREUIL")
    let squirrels = try jsonArray(try sandbox.run("list", "--json").standardOutput)
      .filter { ($0["species"] as? String)?.lowercased().contains("cureuil") == true }
    #expect(squirrels.count == 1)

    // Names: NFC and NFD spellings find the same suspect.
    let zoe = try sandbox.run(
      "animal", "add", "--name", "Zo\u{00EB}", "--species", "Zebra", "--paw", "large", "--json")
    expectSuccess(zoe, "animal add Zoë")
    #expect(try Self.suspect(sandbox, "Zoe\u{0308}")["id"] as? Int == (try Self.id(zoe)))
    #expect(try Self.suspect(sandbox, "ZOE\u{0308}")["id"] as? Int == (try Self.id(zoe)))
    // Fruits: one fruit per case-folded, normalized name.
    expectSuccess(try sandbox.run("fruit", "add", "P\u{00EA}che", "--color", "orange"), "Pêche")
    for other in ["P\u{00CA}CHE", "Pe\u{0302}che"] {
      expectRefusal(
        try sandbox.run("fruit", "add", other, "--color", "orange"), [65],
        "fruit add \(other.unicodeScalars.map(\.value))")
    }
    // Full case folding: ß and SS are one species.
    expectSuccess(
      try sandbox.run(
        "animal", "add", "--name", "Gus", "--species", "Stra\u{00DF}e", "--paw",
        "small"), "Straße")
    expectRefusal(
      try sandbox.run("animal", "add", "--name", "Hal", "--species", "STRASSE", "--paw", "small"),
      [65], "STRASSE")
    expectSuccess(try sandbox.run("check"), "check")
  }

  // MARK: - Locale

  /// A directory holding a compiled `de_DE.UTF-8` locale for `LOCPATH` (this machine may not
  /// have one installed), or `nil` when `localedef` is missing.
  static let germanLocale: String? = {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("inspector-locale-\(getpid())").path
    if FileManager.default.fileExists(atPath: directory + "/de_DE.UTF-8/LC_NUMERIC") {
      return directory
    }
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/localedef") else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/localedef")
    process.arguments = ["-i", "de_DE", "-f", "UTF-8", directory + "/de_DE.UTF-8"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    process.waitUntilExit()
    return FileManager.default.fileExists(atPath: directory + "/de_DE.UTF-8/LC_NUMERIC")
      ? directory : nil
  }()

  @Test func numbersIgnoreAGermanLocale() throws {
    let sandbox = try ProcessSandbox()
    var german = ["LC_ALL": "de_DE.UTF-8", "LANG": "de_DE.UTF-8"]
    if let directory = Self.germanLocale { german["LOCPATH"] = directory }
    defer {
      if let directory = Self.germanLocale {
        try? FileManager.default.removeItem(atPath: directory)
      }
    }
    // Prove the locale is live for a child process: the C library prints a decimal comma.
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: "/usr/bin/printf")
    probe.arguments = ["%.1f", "0.5"]
    probe.environment = sandbox.environment.merging(german) { $1 }
    let pipe = Pipe()
    probe.standardOutput = pipe
    probe.standardError = FileHandle.nullDevice
    try probe.run()
    probe.waitUntilExit()
    let printed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    if Self.germanLocale != nil { #expect(printed == "0,5", "the German locale is not in effect") }

    let set = try sandbox.run(["suspect", "crow", "0.5"], environment: german)
    expectSuccess(set, "suspect crow 0.5 (de_DE)")
    #expect(set.standardOutput == "Catie the Crow: suspicion 0.5 (Very suspicious)\n")
    expectRefusal(
      try sandbox.run(["suspect", "crow", "0,75"], environment: german), [65], "0,75 (de_DE)")
    expectRefusal(
      try sandbox.run(
        [
          "incident", "add", "--fruit", "Elstar Apple", "--at", "10:00", "--lat", "45,5", "--lon",
          "7",
        ], environment: german), [65], "--lat 45,5 (de_DE)")
    let incident = try sandbox.run(
      [
        "incident", "add", "--fruit", "Elstar Apple", "--at", "10:00", "--lat", "45.5", "--lon",
        "-7.25", "--json",
      ], environment: german)
    expectSuccess(incident, "--lat 45.5 (de_DE)")
    #expect(incident.standardOutput.contains(#""latitude": 45.5,"#))
    #expect(incident.standardOutput.contains(#""longitude": -7.25,"#))
    let show = try sandbox.run(["show", "crow", "--format", "csv"], environment: german)
    #expect(show.standardOutput.contains(",0.5,Very suspicious\r\n"))
    let sql = try sandbox.run(
      ["sql", "SELECT 0.5 AS half, 1234567.25 AS big"], environment: german)
    expectSuccess(sql, "sql (de_DE)")
    #expect(sql.standardOutput.contains("0.5") && sql.standardOutput.contains("1234567.25"))
    #expect(!sql.standardOutput.contains("0,5"))
    let rank = try sandbox.run(["rank", "--json"], environment: german)
    #expect(rank.standardOutput.contains(#""suspicion_level": 0.5,"#))
  }
}

// MARK: - Damaged and read-only files

extension HostileInputTests {
  /// Ways to damage a case file.
  enum Damage: String, CaseIterable, CustomTestStringConvertible, Sendable {
    /// 8 KiB of seeded random bytes at a random offset in the middle half (three seeds).
    case middle1, middle2, middle3
    /// Random bytes over page 1 after the 100-byte header: the schema table.
    case schemaPage
    /// Cut to half its length, or to its first 100 bytes.
    case truncatedToHalf, truncatedTo100Bytes
    /// Random bytes over the header: no longer recognisably SQLite.
    case header

    var testDescription: String { rawValue }

    /// Applies the damage to the file at `path`.
    func apply(to path: String) throws {
      let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
      defer { try? handle.close() }
      let size = try handle.seekToEnd()
      var generator = SeededGenerator(fallback: UInt64(Self.allCases.firstIndex(of: self)!) + 7)
      func noise(_ count: Int) -> Data {
        Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
      }
      switch self {
      case .middle1, .middle2, .middle3:
        try handle.seek(toOffset: UInt64.random(in: size / 4...size * 3 / 4, using: &generator))
        try handle.write(contentsOf: noise(8192))
      case .schemaPage:
        try handle.seek(toOffset: 100)
        try handle.write(contentsOf: noise(3996))
      case .truncatedToHalf: try handle.truncate(atOffset: size / 2)
      case .truncatedTo100Bytes: try handle.truncate(atOffset: 100)
      case .header:
        try handle.seek(toOffset: 0)
        try handle.write(contentsOf: noise(100))
      }
      try handle.synchronize()
    }
  }

  /// A seeded case file with 3,000 more suspects, their alibis and levels (2 MB), so damage
  /// lands on data the commands read. The folded keys are given (ASCII names fold to lower
  /// case), so the key triggers of the schema stay idle and the fill takes a moment.
  static func largeCase() throws -> ProcessSandbox {
    let sandbox = try ProcessSandbox()
    expectSuccess(
      try sandbox.run(
        "sql", "--write",
        """
        WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000)
        INSERT INTO animals (name, species, paw_size, name_key, species_key)
          SELECT 'Extra ' || x, 'Species ' || x, 'small', 'extra ' || x, 'species ' || x FROM c;
        INSERT INTO alibis (animal_id, statement)
          SELECT id, 'At home, ' || printf('%.400c', 'z') FROM animals WHERE id > 10;
        INSERT INTO suspicion_levels (animal_id, level)
          SELECT id, (id % 100) / 100.0 FROM animals WHERE id > 10;
        """), "fill the case file")
    return sandbox
  }

  /// Whether the command streams its rows, so a failure part-way leaves the rows before it.
  static func streams(_ arguments: [String]) -> Bool {
    arguments.first == "list" || arguments.first == "rank"
      || arguments.prefix(2) == ["fruit", "list"]
      || arguments.prefix(2) == ["incident", "list"]
  }

  /// Commands that read or write every part of a case file.
  static func battery(_ sandbox: ProcessSandbox) -> [[String]] {
    [
      ["list"], ["list", "--json"], ["show", "crow"], ["show", "4", "--json"],
      ["show", "Species 1500"], ["fruit", "list"], ["incident", "list"], ["rank"],
      ["rank", "--all", "--json"], ["suspect", "crow", "0.5"], ["alibi", "crow", "On the roof"],
      ["animal", "add", "--name", "Nia", "--species", "Newt", "--paw", "small"],
      ["animal", "remove", "Species 2999"], ["fruit", "add", "Kiwi", "--color", "green"],
      ["favorite", "add", "crow", "Elstar Apple"],
      ["sql", "SELECT count(*), sum(length(statement)) FROM alibis"],
      ["sql", "--write", "UPDATE suspicion_levels SET level = 1 WHERE animal_id = 4"],
      ["backup", sandbox.directory.appendingPathComponent("copy.sqlite").path],
      ["migrate", "status"], ["migrate", "up"], ["init"], ["demo"], ["check"],
    ]
  }

  @Test func aLargeCaseIsPrintedAsValidJSON() throws {
    // 3,010 suspects with 400-character alibis: about 1.5 MB of JSON. (Serialising it used to
    // copy the whole output for every string written; speed is the benchmark's business, so
    // this test only checks the output, within the sandbox's generous timeout.)
    let sandbox = try Self.largeCase()
    for arguments in [
      ["list", "--json"], ["rank", "--all", "--json"], ["sql", "SELECT * FROM animals", "--json"],
    ] {
      let run = try sandbox.run(arguments, timeout: 60)
      expectSuccess(run, "\(arguments)")
      #expect(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) is [Any])
    }
  }

  @Test(arguments: Damage.allCases)
  func aDamagedFileIsRefusedWithOneLineAndNeverCrashes(_ damage: Damage) throws {
    let sandbox = try Self.largeCase()
    let healthy = sandbox.directory.appendingPathComponent("healthy.sqlite").path
    expectSuccess(try sandbox.run("init", "--seed", "--db", healthy), "init healthy")
    let healthyBefore = try sandbox.run("list", "--json", "--db", healthy).standardOutput
    #expect(try sandbox.caseDirectoryContents() == ["cases.sqlite"], "no WAL left to recover")
    try damage.apply(to: sandbox.databasePath)

    for arguments in Self.battery(sandbox) {
      let run = try sandbox.run(arguments)
      let label = "\(damage): \(arguments.prefix(3))"
      expectNoCrash(run, label)
      if arguments == ["check"] && run.status == 65 && !run.standardOutput.isEmpty {
        // check reports the damage it could read as findings on stdout, then fails.
        #expect(run.standardOutput.contains("fault     integrity_check"), "\(label)")
        #expect(run.standardError.hasPrefix("inspector: error: check found "), "\(label)")
      } else if run.status != 0 && Self.streams(arguments) && !run.standardOutput.isEmpty {
        // A listing streams: the rows read before the damage stay on stdout, cut short, and the
        // error line and exit code follow (docs/output-formats.md "Streaming").
        var errorPart = run
        errorPart.standardOutput = ""
        expectRefusal(errorPart, [65, 66], label)
        if arguments.contains("--json") {
          #expect(!run.standardOutput.hasSuffix("]\n"), "\(label): a cut array is not closed")
          #expect(
            (try? JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8))) == nil,
            "\(label): a cut array does not parse")
        }
      } else if run.status != 0 {
        expectRefusal(run, [65, 66], label)
      }
      if arguments == ["check"] { #expect(run.status != 0, "\(label): check passed") }
    }
    // Restoring the damaged file over a healthy one is refused and changes nothing.
    let restore = try sandbox.run("restore", sandbox.databasePath, "--force", "--db", healthy)
    expectRefusal(restore, [65, 66], "\(damage): restore")
    #expect(try sandbox.run("list", "--json", "--db", healthy).standardOutput == healthyBefore)
  }

  @Test func aPathThatIsNotARegularFileIsRefusedWithoutHanging() throws {
    let sandbox = try ProcessSandbox()
    let fifo = sandbox.path("fifo.sqlite")
    #expect(mkfifo(fifo, 0o600) == 0)
    let folder = sandbox.path("folder.sqlite")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    let before = try sandbox.run("list", "--json").standardOutput
    // Opening a FIFO for reading blocks until a writer comes: the file type is checked first.
    for path in [fifo, folder] {
      for arguments in [
        ["list"], ["sql", "SELECT 1"], ["suspect", "crow", "0.5"], ["check"], ["init"],
        ["backup", sandbox.directory.appendingPathComponent("copy.sqlite").path],
      ] {
        let run = try sandbox.run(arguments + ["--db", path], timeout: 10)
        expectRefusal(run, [66], "\(arguments) --db \(path)")
        #expect(run.standardError == "inspector: error: \(path) is not an SQLite database\n")
      }
      expectRefusal(
        try sandbox.run(["restore", path, "--force"], timeout: 10), [66], "restore \(path)")
    }
    #expect(try sandbox.run("list", "--json").standardOutput == before)
  }

  /// Makes a file or directory unwritable, even for root (`chattr +i` when running as root,
  /// where `chmod` stops nobody; `chmod` otherwise), and checks that it worked.
  enum WriteProtection {
    /// Protects `path`; `false` when this machine cannot (no `chattr`, or a file system
    /// without the immutable flag).
    static func protect(_ path: String, isDirectory: Bool) -> Bool {
      if getuid() == 0 {
        guard chattr("+i", path) else { return false }
      } else {
        guard chmod(path, isDirectory ? 0o555 : 0o444) == 0 else { return false }
      }
      // Verify: writing must fail now.
      if isDirectory {
        let probe = path + "/.probe-\(getpid())"
        let descriptor = open(probe, O_CREAT | O_EXCL | O_WRONLY, 0o600)
        guard descriptor < 0 else {
          close(descriptor)
          unlink(probe)
          unprotect(path, isDirectory: true)
          return false
        }
      } else {
        let descriptor = open(path, O_WRONLY)
        guard descriptor < 0 else {
          close(descriptor)
          unprotect(path, isDirectory: false)
          return false
        }
      }
      return true
    }

    /// Undoes ``protect(_:isDirectory:)``.
    static func unprotect(_ path: String, isDirectory: Bool) {
      if getuid() == 0 {
        _ = chattr("-i", path)
      } else {
        chmod(path, isDirectory ? 0o755 : 0o600)
      }
    }

    private static func chattr(_ flag: String, _ path: String) -> Bool {
      guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chattr") else { return false }
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
      process.arguments = [flag, path]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      guard (try? process.run()) != nil else { return false }
      process.waitUntilExit()
      return process.terminationStatus == 0
    }
  }

  @Test func aReadOnlyFileIsReadAndWritesAreRefused() throws {
    let sandbox = try ProcessSandbox()
    let before = try sandbox.run("list", "--json").standardOutput
    guard WriteProtection.protect(sandbox.databasePath, isDirectory: false) else {
      print("HostileInputTests: cannot write-protect a file here (uid \(getuid())); skipped")
      return
    }
    defer { WriteProtection.unprotect(sandbox.databasePath, isDirectory: false) }
    let copy = sandbox.directory.appendingPathComponent("copy.sqlite").path
    for arguments in [
      ["list"], ["show", "crow", "--json"], ["rank"], ["fruit", "list"], ["check"],
      ["sql", "SELECT count(*) FROM animals"], ["migrate", "status"], ["backup", copy],
    ] {
      expectSuccess(try sandbox.run(arguments), "read-only file: \(arguments)")
    }
    for arguments in [
      ["suspect", "crow", "0.5"], ["alibi", "crow", "home"],
      ["animal", "add", "--name", "Nia", "--species", "Newt", "--paw", "small"],
      ["fruit", "add", "Kiwi", "--color", "green"], ["sql", "--write", "DELETE FROM alibis"],
      ["animal", "remove", "crow"], ["restore", copy, "--force"],
    ] {
      let run = try sandbox.run(arguments)
      expectRefusal(run, [74], "read-only file: \(arguments)")
      #expect(run.standardError.contains("read-only"), "\(arguments)")
    }
    WriteProtection.unprotect(sandbox.databasePath, isDirectory: false)
    #expect(try sandbox.run("list", "--json").standardOutput == before)
  }

  @Test func aReadOnlyDirectoryRefusesWithOneLine() throws {
    let sandbox = try ProcessSandbox()
    let before = try sandbox.run("list", "--json").standardOutput
    // A reader leaves the WAL's `-wal` and `-shm` files; the last writer to close removes them.
    _ = try sandbox.connection()
    #expect(try sandbox.caseDirectoryContents() == ["cases.sqlite"])
    let directory = sandbox.caseDirectory
    guard WriteProtection.protect(directory, isDirectory: true) else {
      print("HostileInputTests: cannot write-protect a directory here (uid \(getuid())); skipped")
      return
    }
    defer { WriteProtection.unprotect(directory, isDirectory: true) }
    // SQLite cannot create the WAL's `-shm` index beside the file, so even reads may be
    // refused; what matters is the documented code, one line, and no crash.
    let copy = sandbox.directory.appendingPathComponent("copy.sqlite").path
    for arguments in [
      ["list"], ["show", "crow", "--json"], ["check"], ["sql", "SELECT 1"], ["backup", copy],
      ["suspect", "crow", "0.5"], ["sql", "--write", "DELETE FROM alibis"], ["migrate", "up"],
      ["animal", "add", "--name", "Nia", "--species", "Newt", "--paw", "small"],
    ] {
      let run = try sandbox.run(arguments)
      expectNoCrash(run, "read-only directory: \(arguments)")
      if run.status != 0 { expectRefusal(run, [66, 74], "read-only directory: \(arguments)") }
    }
    // Nothing can be created in it: a new case file or a backup.
    expectRefusal(
      try sandbox.run("init", "--db", sandbox.path("new.sqlite")), [73], "init in read-only dir")
    let healthy = sandbox.directory.appendingPathComponent("healthy.sqlite").path
    expectSuccess(try sandbox.run("init", "--seed", "--db", healthy), "init healthy")
    expectRefusal(
      try sandbox.run("backup", sandbox.path("backup.sqlite"), "--db", healthy), [73],
      "backup into read-only dir")
    #expect(try sandbox.caseDirectoryContents() == ["cases.sqlite"])
    WriteProtection.unprotect(directory, isDirectory: true)
    #expect(try sandbox.run("list", "--json").standardOutput == before)
  }
}
