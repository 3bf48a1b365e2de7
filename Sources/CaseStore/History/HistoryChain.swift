import SQLiteKit

/// The history's hash chain (docs/history.md "Tamper evidence"): each change set's seal in
/// `history_seals` is the SHA-256 of the previous seal (32 zero bytes for the first) followed
/// by the change set's canonical content (`ChangeSetContent`), typed and length-prefixed.
///
/// inspector seals before each of its write transactions commits (`seal(_:)`); `check` and
/// `history --verify` verify (``verify(_:)``). The chain shows an edit or removal of a sealed
/// change set made without resealing everything after it; it cannot stop someone with the file
/// from rewriting the history and resealing it by hand (an exported head shows that).
public enum HistoryChain {
  /// The schema version that adds `history_seals` (`migrations/0016_history_seals.sql`).
  public static let schemaVersion = 16

  /// The "previous seal" of the first sealed change set: 32 zero bytes.
  static let zeroSeal = [UInt8](repeating: 0, count: 32)

  /// The newest seal: the change set it seals and the seal in 64 lowercase hex digits.
  public struct Head: Sendable, Equatable {
    /// The id of the newest sealed change set.
    public let changeSet: Int64
    /// Its seal, 64 lowercase hex digits.
    public let seal: String
  }

  /// What is wrong with the chain: the first fault found, in change set order.
  public enum Fault: Sendable, Equatable {
    /// The change set's content (or the seal before it) no longer gives its stored seal: it,
    /// its seal, or a change set before it was edited, or removed with its seal, since sealing;
    /// or the change set after it was removed with its seal, whose changes then read as its
    /// own (a change set's changes run up to the next one's first change, docs/history.md
    /// "The tables").
    case mismatch(changeSet: Int64)
    /// A seal remains for a change set that no longer exists: the change set was deleted.
    case missing(changeSet: Int64)
    /// A change set older than the newest seal has no seal: it was added after sealing.
    case unsealedInside(changeSet: Int64)

    /// The change set concerned.
    public var changeSet: Int64 {
      switch self {
      case .mismatch(let id), .missing(let id), .unsealedInside(let id): id
      }
    }

    /// One line saying what is wrong, naming the change set.
    public var message: String {
      switch self {
      case .mismatch(let id):
        "change set \(id) does not match its seal: it, its seal or a change set before it was"
          + " edited or removed after sealing, or the one after it was removed"
      case .missing(let id):
        "change set \(id) is missing: its seal remains, the change set was deleted"
      case .unsealedInside(let id):
        "change set \(id) has no seal but is older than the newest seal: it was added after"
          + " sealing"
      }
    }
  }

  /// What ``verify(_:)`` found.
  public struct Verdict: Sendable, Equatable {
    /// Sealed change sets checked before the first fault (all of them when there is none).
    public let verified: Int
    /// Change sets newer than the newest seal (other clients' writes that the next writing
    /// command seals); not a fault.
    public let unsealed: Int
    /// The newest seal, or `nil` when nothing is sealed.
    public let head: Head?
    /// The first fault, or `nil` when the chain is intact.
    public let fault: Fault?

    /// The verdict in one line: `intact: N sealed change set(s) ...` or the fault.
    public var summary: String {
      if let fault { return fault.message }
      let head = self.head.map { " up to change set \($0.changeSet)" } ?? ""
      let unsealed = unsealed > 0 ? "; \(unsealed) newer change set(s) not sealed yet" : ""
      return "intact: \(verified) sealed change set(s)\(head)\(unsealed)"
    }
  }

  // MARK: - Sealing

  /// Seals every change set newer than the newest seal, in id order, inside the caller's write
  /// transaction: one read of those change sets (``ChangeSetContent/forEach(in:after:_:)``) and
  /// one insert per seal, through cached statements. Nothing is done on a file without
  /// `history_seals` or `history_reverts` (a schema damaged by hand, which `sql --write` must still be able to
  /// repair; `check` reports the missing table).
  ///
  /// - Returns: How many change sets were sealed.
  /// - Throws: `SQLiteError`.
  @discardableResult
  static func seal(_ connection: Connection) throws -> Int {
    let tables = try connection.cachedStatement(
      """
      SELECT count(*) FROM sqlite_schema
      WHERE type = 'table' AND name IN ('history_seals', 'history_reverts')
      """)
    guard try tables.step(), tables.int64(at: 0) == 2 else { return 0 }
    tables.reset()
    let newest = try connection.cachedStatement(
      "SELECT change_set_id, seal FROM history_seals ORDER BY change_set_id DESC LIMIT 1")
    var previous = zeroSeal
    var after = Int64.min
    if try newest.step() {
      after = newest.int64(at: 0)
      previous = newest.blob(at: 1)
    }
    newest.reset()
    let insert = try connection.cachedStatement(
      "INSERT INTO history_seals (change_set_id, seal) VALUES (?, ?)")
    var current: (id: Int64, hasher: ContentHasher)?
    var sealed = 0
    func finish() throws {
      guard var sealing = current else { return }
      previous = sealing.hasher.finalize()
      try insert.run([sealing.id, SQLiteValue.blob(previous)])
      sealed += 1
      current = nil
    }
    try ChangeSetContent.forEachInPlace(in: connection, after: after) { piece in
      if case .piece(.changeSet(let id, _, _, _, _)) = piece {
        try finish()
        current = (id, ContentHasher(previous: previous))
      }
      current?.hasher.add(piece)
    }
    try finish()
    return sealed
  }

  /// Removes every seal, inside the caller's write transaction, so that the transaction's
  /// ``seal(_:)`` seals the whole history anew (`history prune`, which rewrites its start).
  ///
  /// - Throws: `SQLiteError`.
  static func removeSeals(_ connection: Connection) throws {
    try connection.execute("DELETE FROM history_seals")
  }

  // MARK: - Verifying

  /// Verifies the chain: each sealed change set's content, hashed after the seal stored before
  /// it, must give its stored seal; every seal must have its change set, and every change set
  /// up to the newest seal a seal. Stops at the first fault. Reads only (one pass over the
  /// history and the seals).
  ///
  /// - Parameter connection: The case file at schema version 16 or later.
  /// - Returns: The verdict.
  /// - Throws: `SQLiteError`.
  public static func verify(_ connection: Connection) throws -> Verdict {
    try verify(connection) { _, _ in }
  }

  /// ``verify(_:)``, handing every change it reads to `observe` as well, in the order read (the
  /// pass `check` also compares the history's latest rows with the live tables in,
  /// ``HistoryCheck/findingsWithChain(_:)``): its id, and its values in
  /// ``StoredValues/order``, read once for the seal and the observer alike and valid only during
  /// the call. Past a fault the read stops: `observe` then has not seen every change.
  ///
  /// - Throws: `SQLiteError`, or what `observe` throws.
  static func verify(
    _ connection: Connection,
    observing observe: (_ id: Int64, _ values: StoredValues.Raw) throws -> Void
  ) throws -> Verdict {
    let seals = try connection.prepare(
      "SELECT change_set_id, seal FROM history_seals ORDER BY change_set_id")
    var nextSeal: (id: Int64, seal: [UInt8])?
    func advance() throws {
      nextSeal = try seals.step() ? (seals.int64(at: 0), seals.blob(at: 1)) : nil
    }
    try advance()
    var previous = zeroSeal
    var current: (id: Int64, expected: [UInt8], hasher: ContentHasher)?
    var verified = 0
    var unsealed = 0
    var fault: Fault?
    var head: Head?
    struct Stop: Error {}
    /// Ends the change set being checked; `next` is the id of the change set read after it.
    func finish(before next: Int64?) throws {
      guard var checking = current else { return }
      current = nil
      guard checking.hasher.finalize() == checking.expected else {
        // A change set deleted after this one (its seal remains) left its changes in this
        // one's range: the deletion is the fault to name.
        if let seal = nextSeal, next.map({ seal.id < $0 }) ?? true {
          fault = .missing(changeSet: seal.id)
        } else {
          fault = .mismatch(changeSet: checking.id)
        }
        throw Stop()
      }
      verified += 1
      previous = checking.expected
      head = Head(changeSet: checking.id, seal: SHA256.hex(checking.expected))
    }
    do {
      try ChangeSetContent.forEachInPlace(in: connection, after: .min) { piece in
        guard case .piece(.changeSet(let id, _, _, _, _)) = piece else {
          guard case .change(let stored) = piece else {
            current?.hasher.add(piece)
            return
          }
          try stored.withRaw { values in
            try observe(stored.changeID, values)
            current?.hasher.addChange(values)
          }
          return
        }
        try finish(before: id)
        if let seal = nextSeal, seal.id < id {
          fault = .missing(changeSet: seal.id)
          throw Stop()
        }
        guard let seal = nextSeal else {
          unsealed += 1
          return
        }
        guard seal.id == id else {
          fault = .unsealedInside(changeSet: id)
          throw Stop()
        }
        current = (id, seal.seal, ContentHasher(previous: previous))
        current?.hasher.add(piece)
        try advance()
      }
      try finish(before: nil)
      if let seal = nextSeal { fault = .missing(changeSet: seal.id) }
    } catch is Stop {}
    if fault != nil { head = try self.head(connection) }
    return Verdict(verified: verified, unsealed: unsealed, head: head, fault: fault)
  }

  /// The newest seal, or `nil` when nothing is sealed yet. Reads only.
  ///
  /// - Throws: `SQLiteError`.
  public static func head(_ connection: Connection) throws -> Head? {
    let newest = try connection.prepare(
      "SELECT change_set_id, seal FROM history_seals ORDER BY change_set_id DESC LIMIT 1")
    guard try newest.step() else { return nil }
    return Head(changeSet: newest.int64(at: 0), seal: SHA256.hex(newest.blob(at: 1)))
  }

  /// `check`'s findings about the chain: the first fault (a fault naming its change set), and
  /// a note for change sets not sealed yet. Nothing on a file older than ``schemaVersion``.
  static func findings(_ connection: Connection) throws -> [CheckFinding] {
    findings(of: try verify(connection))
  }

  /// `check`'s findings about the chain from a verdict already reached.
  static func findings(of verdict: Verdict) -> [CheckFinding] {
    var findings: [CheckFinding] = []
    if let fault = verdict.fault {
      findings.append(
        CheckFinding(
          .fault, .history, table: "history_change_sets", row: "id \(fault.changeSet)",
          fault.message,
          hint: "compare with a backup, or with a head that inspector history --head exported"))
    }
    if verdict.unsealed > 0 {
      findings.append(
        CheckFinding(
          .note, .history, table: "history_change_sets",
          "\(verdict.unsealed) change set(s) newer than the last seal are not sealed yet"
            + " (other clients' writes, or a history older than its seals)",
          hint: "the next inspector command that writes seals them"))
    }
    return findings
  }
}

/// SHA-256 over one change set's canonical content, after the previous seal: each piece of
/// ``ChangeSetContent`` as a tag byte then typed, length-prefixed values, so that no two
/// different contents feed the same bytes.
///
/// A change set: `S`, then its id, time, actor, note and grouping as values. A change: `C`,
/// the number of its values (8 bytes, big-endian), then each value. A change set it reverted:
/// `R`, then that change set's id and the kind (`undo` or `redo`) as values. A value: `n` for NULL;
/// `i` and 8 bytes (two's complement, big-endian) for an integer; `r` and the 8 bytes of an
/// IEEE 754 double (big-endian) for a real; `t` or `b`, the byte count (8 bytes, big-endian)
/// and the bytes (UTF-8 for text) for text or a blob. The content ends with `E`.
struct ContentHasher {
  private var hasher = SHA256()

  /// A hasher fed `previous` (32 bytes) first.
  init(previous: [UInt8]) {
    hasher.update(previous)
  }

  /// Feeds one piece of the content.
  mutating func add(_ piece: ChangeSetContent) {
    switch piece {
    case .changeSet(let id, let at, let actor, let note, let grouping):
      hasher.update(byte: UInt8(ascii: "S"))
      for value: SQLiteValue in [
        .integer(id), .text(at), actor.map(SQLiteValue.text) ?? .null,
        note.map(SQLiteValue.text) ?? .null, .text(grouping),
      ] {
        add(value)
      }
    case .change(let values):
      hasher.update(byte: UInt8(ascii: "C"))
      hasher.update(bigEndian: UInt64(values.count))
      for value in values { add(value) }
    case .reverted(let changeSet, let kind):
      hasher.update(byte: UInt8(ascii: "R"))
      add(.integer(changeSet))
      add(.text(kind))
    }
  }

  /// Feeds one piece as ``ChangeSetContent/forEachInPlace(in:after:_:)`` hands it over: the
  /// same bytes as ``add(_:)-(ChangeSetContent)`` for the same piece, a change's values read
  /// where the statement holds them.
  mutating func add(_ piece: ChangeSetContent.InPlace) {
    switch piece {
    case .piece(let piece): add(piece)
    case .change(let stored): stored.withRaw { addChange($0) }
    }
  }

  /// Feeds a change made of `values` as SQLite holds them: the same bytes as
  /// ``add(_:)-(ChangeSetContent)`` for a ``ChangeSetContent/change(_:)`` of the same values.
  mutating func addChange(_ values: StoredValues.Raw) {
    hasher.update(byte: UInt8(ascii: "C"))
    hasher.update(bigEndian: UInt64(values.count))
    for value in values { addRaw(value) }
  }

  /// The seal: the digest of everything fed, followed by the end mark.
  mutating func finalize() -> [UInt8] {
    hasher.update(byte: UInt8(ascii: "E"))
    return hasher.finalize()
  }

  /// Feeds a value as SQLite holds it, exactly as `add(_:)` feeds the same value
  /// read as an `SQLiteValue`: text that is not plain ASCII goes through the same decoding
  /// (`Statement.text(at:)`, which repairs invalid UTF-8), so that both give one seal.
  private mutating func addRaw(_ value: Statement.RawValue) {
    switch value {
    case .null: add(SQLiteValue.null)
    case .integer(let number): add(SQLiteValue.integer(number))
    case .real(let number): add(SQLiteValue.real(number))
    case .text(let bytes):
      guard bytes.allSatisfy({ $0 < 0x80 }) else {
        add(.text(String(decoding: bytes, as: UTF8.self)))
        return
      }
      hasher.update(byte: UInt8(ascii: "t"))
      hasher.update(bigEndian: UInt64(bytes.count))
      hasher.update(bytes)
    case .blob(let bytes):
      hasher.update(byte: UInt8(ascii: "b"))
      hasher.update(bigEndian: UInt64(bytes.count))
      hasher.update(bytes)
    }
  }

  private mutating func add(_ value: SQLiteValue) {
    switch value {
    case .null:
      hasher.update(byte: UInt8(ascii: "n"))
    case .integer(let number):
      hasher.update(byte: UInt8(ascii: "i"))
      hasher.update(bigEndian: UInt64(bitPattern: number))
    case .real(let number):
      hasher.update(byte: UInt8(ascii: "r"))
      hasher.update(bigEndian: number.bitPattern)
    case .text(let text):
      hasher.update(byte: UInt8(ascii: "t"))
      hasher.update(bigEndian: UInt64(text.utf8.count))
      hasher.update(text.utf8)
    case .blob(let bytes):
      hasher.update(byte: UInt8(ascii: "b"))
      hasher.update(bigEndian: UInt64(bytes.count))
      hasher.update(bytes)
    }
  }
}

extension CaseHistory {
  /// Verifies the history's hash chain (``HistoryChain/verify(_:)``; `history --verify`).
  ///
  /// - Throws: `SQLiteError`.
  public func verifyChain() throws -> HistoryChain.Verdict {
    try HistoryChain.verify(database.connection)
  }

  /// The newest seal, or `nil` when nothing is sealed yet (`history --head`).
  ///
  /// - Throws: `SQLiteError`.
  public func chainHead() throws -> HistoryChain.Head? {
    try HistoryChain.head(database.connection)
  }
}
