import Foundation
import SQLiteKit
import Testing

@testable import CaseStore

@Suite("Investigator tokens: only hashes stored, checked, revoked")
struct InvestigatorTokensTests {
  @Test func anAddedTokenSignsItsInvestigatorInAndOnlyItsHashIsStored() throws {
    try withTemporaryFile { path in
      let database = try seededFile(at: path)
      let (ann, annToken) = try database.write(nil) { try $0.investigators.add(name: "Ann") }
      let (_, bobToken) = try database.write(nil) { try $0.investigators.add(name: "Bob") }
      #expect(ann.name == "Ann")
      #expect(annToken.count == 43)
      #expect(annToken.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
      #expect(annToken != bobToken)
      #expect(try database.read { try $0.investigators.investigator(presenting: annToken) } == ann)
      #expect(
        try database.read { try $0.investigators.investigator(presenting: bobToken)?.name }
          == "Bob")
      // A token one character off, an empty one, and a huge one sign nobody in.
      let wrong = String(annToken.dropLast()) + (annToken.last == "A" ? "B" : "A")
      for token in [wrong, "", String(repeating: "x", count: 10_000)] {
        #expect(try database.read { try $0.investigators.investigator(presenting: token) } == nil)
      }
      // As another client sees the file: the SHA-256 of each token, never the token.
      let dump = try sqlite3(
        path, "SELECT name, hex(token_hash) FROM investigator_tokens ORDER BY name;")
      #expect(dumpMatches(dump, annToken, bobToken), "\(dump)")
      let whole = try sqlite3(path, ".dump")
      #expect(whole.contains("investigator_tokens"))
      #expect(!whole.contains(annToken))
      #expect(!whole.contains(bobToken))
      #expect(!(try String(contentsOfFile: path, encoding: .isoLatin1)).contains(annToken))
    }
  }

  @Test func listingGivesNamesAndTimesAndNoChangeSetIsRecorded() throws {
    let database = try seededDatabase()
    let changeSets = try database.rowCount("history_change_sets")
    try database.write(nil) { _ = try $0.investigators.add(name: "Zed") }
    try database.write(nil) { _ = try $0.investigators.add(name: "amy") }
    let all = try database.read { try $0.investigators.all() }
    #expect(all.map(\.name) == ["amy", "Zed"])
    #expect(all.allSatisfy { $0.createdAt.hasPrefix("20") && $0.createdAt.hasSuffix("Z") })
    #expect(try database.rowCount("history_change_sets") == changeSets)
  }

  @Test func aRevokedTokenSignsNobodyInAndUnknownNamesAreRefused() throws {
    let database = try seededDatabase()
    let (_, token) = try database.write(nil) { try $0.investigators.add(name: "Ann") }
    let revoked = try database.write(nil) { try $0.investigators.revoke(name: "ANN") }
    #expect(revoked.name == "Ann")
    #expect(try database.read { try $0.investigators.investigator(presenting: token) } == nil)
    #expect(try database.read { try $0.investigators.all() } == [])
    #expect(throws: CaseError.unknownInvestigator("Ann")) {
      try database.write(nil) { try $0.investigators.revoke(name: "Ann") }
    }
  }

  @Test(
    "refuses duplicate and bad names",
    arguments: [
      ("ann", CaseError.duplicateInvestigator("ann")),
      (
        " Ann",
        CaseError.invalidValue(
          field: "investigator name", value: " Ann",
          expected: "1 to 64 characters, no control character, no space at either end")
      ),
      (
        "",
        CaseError.invalidValue(
          field: "investigator name", value: "",
          expected: "1 to 64 characters, no control character, no space at either end")
      ),
      (
        "a\nb",
        CaseError.invalidValue(
          field: "investigator name", value: "a\nb",
          expected: "1 to 64 characters, no control character, no space at either end")
      ),
      (
        String(repeating: "n", count: 65),
        CaseError.invalidValue(
          field: "investigator name", value: String(repeating: "n", count: 65),
          expected: "1 to 64 characters, no control character, no space at either end")
      ),
    ])
  func refusesBadNames(name: String, error: CaseError) throws {
    let database = try seededDatabase()
    try database.write(nil) { _ = try $0.investigators.add(name: "Ann") }
    #expect(throws: error) { try database.write(nil) { try $0.investigators.add(name: name) } }
    #expect(try database.read { try $0.investigators.all().map(\.name) } == ["Ann"])
  }

  @Test func theTableRefusesWhatTheStoreRefusesWhenWrittenWithPlainSQL() throws {
    let database = try seededDatabase()
    let now = "'2026-01-01T00:00:00.000Z'"
    for sql in [
      "INSERT INTO investigator_tokens VALUES (' Ann', randomblob(32), \(now))",
      "INSERT INTO investigator_tokens VALUES ('Ann', randomblob(31), \(now))",
      "INSERT INTO investigator_tokens VALUES ('a' || char(9), randomblob(32), \(now))",
      "INSERT INTO investigator_tokens VALUES ('Ann', randomblob(32), 'yesterday')",
      "INSERT INTO investigator_tokens VALUES ('Ann', randomblob(32), \(now)), ('ANN', randomblob(32), \(now))",
    ] {
      let error = try #require(throws: SQLiteError.self) { try database.connection.execute(sql) }
      #expect(error.code == .constraint)
    }
  }

  @Test func secretsAreURLSafeBase64OfRandomBytes() {
    #expect(SecretText.base64URL([]) == "")
    #expect(SecretText.base64URL([0xFB, 0xFF]) == "-_8")
    #expect(SecretText.base64URL(Array("Man".utf8)) == "TWFu")
    #expect(SecretText.base64URL(Array("Ma".utf8)) == "TWE")
    let made = Set((0..<100).map { _ in SecretText.random() })
    #expect(made.count == 100)
    #expect(SecretText.same([1, 2, 3], [1, 2, 3]))
    #expect(!SecretText.same([1, 2, 3], [1, 2, 4]))
    #expect(!SecretText.same([1, 2], [1, 2, 3]))
  }

  // MARK: - Helpers

  /// A seeded case file at `path`.
  private func seededFile(at path: String) throws -> CaseDatabase {
    let database = try CaseDatabase(path: path, access: .create)
    try database.write(nil) { try SeedCase.load(into: $0, on: seedDay) }
    return database
  }

  /// Whether the sqlite3 shell's rows are `Ann|HASH` and `Bob|HASH` of the two tokens.
  private func dumpMatches(_ dump: String, _ ann: String, _ bob: String) -> Bool {
    let hex = { (token: String) in SHA256.hex(SHA256.digest(of: Array(token.utf8))).uppercased() }
    return dump == "Ann|\(hex(ann))\nBob|\(hex(bob))\n"
  }

  /// What the stock sqlite3 shell prints for `sql` on `path`, as another client would.
  private func sqlite3(_ path: String, _ sql: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = [path, sql]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return String(decoding: data, as: UTF8.self)
  }
}
