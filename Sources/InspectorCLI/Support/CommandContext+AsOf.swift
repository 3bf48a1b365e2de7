import CaseStore
import CommandLineKit

extension CommandContext {
  /// Runs `body` on the case to read: the unit's own snapshot, or, with `--as-of`, the case as
  /// it stood then, rebuilt from its history (docs/history.md "As of") into a private case
  /// file (a temporary one; in memory for one suspect) and read in a unit of work of its own.
  ///
  /// - Parameters:
  ///   - db: The read handle of the command's unit of work.
  ///   - option: The `--as-of` option.
  ///   - body: The reads.
  /// - Returns: What `body` returns.
  /// - Throws: What ``CaseHistory/changeSet(asOf:)``, ``CaseHistory/rebuiltCase(asOf:indexed:)`` or
  ///   `body` throws.
  ///   - suspect: The `<animal>` the reads look up, when they read one suspect: for `id:N`,
  ///     only that suspect's rows are rebuilt (index seeks of its own rows, whatever the size
  ///     of the case); any other word is first resolved among the suspects' rows as they stood
  ///     then (``CaseHistory/suspectID(_:asOf:)``), then that suspect alone is rebuilt.
  ///   - inIDOrderOnly: Whether `body` reads the suspects in id order only (`list` without
  ///     filters or sort): the rebuilt case then leaves out the indexes of other orders
  ///     (``CaseHistory/rebuiltCase(asOf:indexed:)``).
  func reading<T>(
    _ db: CaseReader, asOf option: Option<String?>, suspect: String? = nil,
    inIDOrderOnly: Bool = false, _ body: (CaseReader) throws -> T
  ) throws -> T {
    guard let point = try self[option] else { return try body(db) }
    let history = db.history
    let changeSet = try history.changeSet(asOf: point)
    if let reference = suspect?.trimmingCharacters(in: .whitespaces) {
      // `id:N` names the suspect; any other word is resolved among the suspects as they stood
      // then (their rows alone), and the one it names is rebuilt (a word naming none or
      // several fails there as it would on the whole case).
      let id =
        if reference.hasPrefix("id:"), let id = Int64(reference.dropFirst(3)), id > 0 {
          id
        } else {
          try history.suspectID(reference, asOf: changeSet)
        }
      return try history.rebuiltCase(asOf: changeSet, suspect: id).read(body)
    }
    return try history.rebuiltCase(asOf: changeSet, indexed: !inIDOrderOnly).read(body)
  }
}
