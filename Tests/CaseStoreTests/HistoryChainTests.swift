import SQLiteKit
import Testing

@testable import CaseStore

/// The history's seals (docs/history.md "Tamper evidence"): the documented encoding, the
/// content reader, sealing inside every write unit and verification.
@Suite struct HistoryChainTests {
  /// The documented encoding of one value.
  private func encoded(_ value: SQLiteValue) -> [UInt8] {
    func length(_ count: Int) -> [UInt8] {
      (0..<8).map { UInt8(truncatingIfNeeded: UInt64(count) >> UInt64(56 - $0 * 8)) }
    }
    switch value {
    case .null: return [UInt8(ascii: "n")]
    case .integer(let number): return [UInt8(ascii: "i")] + length(Int(number))
    case .real(let number):
      return [UInt8(ascii: "r")]
        + (0..<8).map { UInt8(truncatingIfNeeded: number.bitPattern >> UInt64(56 - $0 * 8)) }
    case .text(let text): return [UInt8(ascii: "t")] + length(text.utf8.count) + Array(text.utf8)
    case .blob(let bytes): return [UInt8(ascii: "b")] + length(bytes.count) + bytes
    }
  }

  @Test func theFirstSealIsTheDocumentedHashOfItsContent() throws {
    let database = try CaseDatabase()
    #expect(try database.rowCount("history_seals") == 0)
    let fruit = try database.write(ChangeAttribution(actor: "ann", note: "new fruit")) {
      try $0.fruits.add(name: "Durian", color: "green").id
    }
    let stored = try database.rows(
      "SELECT s.change_set_id, s.seal, c.at FROM history_seals s"
        + " JOIN history_change_sets c ON c.id = s.change_set_id")
    try #require(stored.count == 1)
    let at = try #require(stored[0][2].textValue)
    #expect(stored[0][0] == .integer(1))
    // 32 zero bytes, the change set, its one change (an insert of fruit id, name, color), end.
    var message = [UInt8](repeating: 0, count: 32) + [UInt8(ascii: "S")]
    for value: SQLiteValue in [.integer(1), .text(at), "ann", "new fruit", "transaction"] {
      message += encoded(value)
    }
    // table_id 1 (fruits), key1, key2, operation 1 (insert), v1 ... v6.
    let change: [SQLiteValue] = [
      1, .integer(fruit), .null, 1, "Durian", "green", .null, .null, .null, .null,
    ]
    message += [UInt8(ascii: "C")] + encoded(.integer(Int64(change.count))).dropFirst()
    for value in change { message += encoded(value) }
    message.append(UInt8(ascii: "E"))
    #expect(stored[0][1] == .blob(SHA256.digest(of: message)))
    let verdict = try HistoryChain.verify(database.connection)
    #expect(verdict.fault == nil)
    #expect(verdict.verified == 1)
    #expect(verdict.head?.seal == SHA256.hex(SHA256.digest(of: message)))
  }

  @Test func theReaderListsEachChangeSetThenItsChangesInOrder() throws {
    let database = try seededDatabase()
    try database.write(ChangeAttribution(actor: "ann")) { db in
      try db.suspects.setAlibi(id: 4, "In the nest.")
      try db.suspects.setSuspicionLevel(id: 4, SuspicionLevel(0.8)!)
    }
    var pieces: [ChangeSetContent] = []
    try ChangeSetContent.forEach(in: database.connection, after: 1) { pieces.append($0) }
    try #require(pieces.count == 3)
    guard case .changeSet(let id, _, let actor, let note, let grouping) = pieces[0] else {
      Issue.record("\(pieces[0])")
      return
    }
    #expect(id == 2)
    #expect(actor == "ann")
    #expect(note == nil)
    #expect(grouping == "transaction")
    #expect(
      pieces[1]
        == .change([4, 4, .null, 1, "In the nest.", .null, .null, .null, .null, .null]))
    guard case .change(let level) = pieces[2] else { return }
    #expect(level.prefix(5) == [6, 4, .null, 1, .real(0.8)])
  }

  @Test func everyWriteSealsOtherClientsChangeSetsAndItsOwn() throws {
    let database = try seededDatabase()
    #expect(try HistoryChain.verify(database.connection).unsealed == 0)
    // Another client's statement (no history_context): a change set of 'statement'.
    try database.connection.execute(
      "INSERT INTO fruits (name, color) VALUES ('Durian', 'green'), ('Feijoa', 'green')")
    let before = try HistoryChain.verify(database.connection)
    #expect(before.unsealed == 1)
    #expect(before.fault == nil)
    // A read seals nothing.
    try database.read { _ in }
    #expect(try HistoryChain.verify(database.connection).unsealed == 1)
    try database.write(nil) { try $0.suspects.setAlibi(id: 1, "Swimming.") }
    let after = try HistoryChain.verify(database.connection)
    #expect(after.unsealed == 0)
    #expect(after.verified == before.verified + 2)
    #expect(after.head?.changeSet == before.head.map { $0.changeSet + 2 })
    // A write that records nothing leaves no change set and no seal behind.
    try database.write(nil) { _ in }
    #expect(try HistoryChain.verify(database.connection) == after)
  }

  @Test func anEditedOrRemovedChangeSetIsTheFault() throws {
    let database = try seededDatabase()
    try database.write(nil) { try $0.suspects.setAlibi(id: 1, "Swimming.") }
    try database.write(nil) { try $0.suspects.setAlibi(id: 1, "Diving.") }
    try database.connection.execute(
      "UPDATE history_changes SET v1 = 'Flying.' WHERE v1 = 'Swimming.'")
    #expect(try HistoryChain.verify(database.connection).fault == .mismatch(changeSet: 2))
    try database.connection.execute(
      "UPDATE history_changes SET v1 = 'Swimming.' WHERE v1 = 'Flying.'")
    #expect(try HistoryChain.verify(database.connection).fault == nil)
    try database.connection.execute("DELETE FROM history_change_sets WHERE id = 3")
    #expect(try HistoryChain.verify(database.connection).fault == .missing(changeSet: 3))
  }

  /// Sealing costs one read of the new change sets and one insert per seal, whatever the
  /// length of the history before them.
  @Test func sealingReadsTheNewChangeSetsOnce() throws {
    let database = try seededDatabase()
    try database.connection.execute("INSERT INTO fruits (name, color) VALUES ('Durian', 'green')")
    var statements: [String] = []
    try database.connection.traceStatements { statements.append($0) }
    try database.write(nil) { try $0.suspects.setAlibi(id: 1, "Swimming.") }
    try database.connection.traceStatements(nil)
    let own = statements.filter { !$0.hasPrefix("--") }
    #expect(own.filter { $0.hasPrefix("SELECT id, at, actor, note, grouping") }.count == 1)
    #expect(own.filter { $0.hasPrefix("SELECT id, NULL, table_id") }.count == 1)
    #expect(own.filter { $0.hasPrefix("INSERT INTO history_seals") }.count == 2)
    #expect(try database.rows("SELECT change_set_id FROM history_seals") == [[1], [2], [3]])
  }

  /// A file from before 0016 upgrades with its history unsealed but intact; its first write
  /// seals the whole of it, and the chain verifies.
  @Test func anUpgradedHistoryIsSealedByItsFirstWrite() throws {
    try withTemporaryFile { path in
      let old = try Connection(path: path, mode: .readWriteCreate)
      try Migrator(migrations: embeddedMigrations.filter { $0.version < 16 }).migrate(old)
      // One statement of another client: one change set.
      try old.execute(
        "INSERT INTO fruits (name, color) VALUES ('Durian', 'green'), ('Kiwi', 'brown')")
      let recorded = try old.scalar("SELECT count(*) FROM history_change_sets")?.integerValue
      #expect(recorded == 1)
      try CaseDatabase.migrator.migrate(old)
      let upgraded = try HistoryChain.verify(old)
      #expect(upgraded.fault == nil)
      #expect(upgraded.unsealed == 1)
      #expect(upgraded.head == nil)
      let database = try CaseDatabase(path: path, access: .readWrite)
      try database.write(nil) { try $0.fruits.add(name: "Feijoa", color: "green") }
      let sealed = try HistoryChain.verify(database.connection)
      #expect(sealed.fault == nil)
      #expect(sealed.verified == 2)
      #expect(sealed.unsealed == 0)
      #expect(sealed.head?.changeSet == 2)
    }
  }

  /// An undo's seal covers what it reverted: removing its `history_reverts` row (which would
  /// make `undo` and `redo` walk back differently) breaks it.
  @Test func anUndosSealCoversWhatItReverted() throws {
    let database = try seededDatabase()
    try database.write(nil) { try $0.suspects.setAlibi(id: 1, "Swimming.") }
    let undo = try database.write(nil) { try $0.undo() }
    let undoSet = try #require(undo.changeSet)
    #expect(undo.undone == 2)
    var pieces: [ChangeSetContent] = []
    try ChangeSetContent.forEach(in: database.connection, after: 2) { pieces.append($0) }
    #expect(pieces.last == .reverted(changeSet: 2, kind: "undo"))
    #expect(try HistoryChain.verify(database.connection).fault == nil)
    try database.connection.execute("DELETE FROM history_reverts")
    #expect(
      try HistoryChain.verify(database.connection).fault == .mismatch(changeSet: undoSet))
  }
}

/// Sealing and verifying read each change's values where SQLite holds them; the bytes hashed
/// must be those of the values copied out, or seals written before would no longer verify.
@Suite struct InPlaceContentTests {
  @Test func inPlaceHashingFeedsTheBytesOfTheCopiedValues() throws {
    let database = try seededDatabase()
    // Values of every storage class, text beyond ASCII and text that is not valid UTF-8.
    try database.connection.execute(
      """
      INSERT INTO history_change_sets (at, grouping, first_change_id)
      SELECT '2026-01-01T00:00:00.000Z', 'statement', max(id) + 1 FROM history_changes;
      INSERT INTO history_changes (table_id, key1, key2, operation, v1, v2, v3, v4, v5, v6)
      VALUES (7, 900, NULL, 1, 'Rénard 🦊', CAST(x'41ff42' AS TEXT), x'00ff', 0.25, NULL, -3);
      """)
    var copied = ContentHasher(previous: HistoryChain.zeroSeal)
    var inPlace = ContentHasher(previous: HistoryChain.zeroSeal)
    var changes = 0
    try ChangeSetContent.forEach(in: database.connection, after: .min) { copied.add($0) }
    try ChangeSetContent.forEachInPlace(in: database.connection, after: .min) { piece in
      if case .change = piece { changes += 1 }
      inPlace.add(piece)
    }
    #expect(changes > 1)
    #expect(inPlace.finalize() == copied.finalize())
    // And the odd change alone: a hasher fed a different byte would differ.
    var pieces: [ChangeSetContent] = []
    try ChangeSetContent.forEach(in: database.connection, after: .min) { pieces.append($0) }
    guard case .change(let values) = pieces.last else {
      Issue.record("\(String(describing: pieces.last))")
      return
    }
    #expect(values[4] == .text("Rénard 🦊"))
    #expect(values[5] == .text("A\u{FFFD}B"))
    #expect(values[6] == .blob([0, 0xFF]))
  }
}
