import SQLiteKit

extension CaseDatabase {
  /// The faults of this file's schema that make its derived columns and indexes
  /// untrustworthy: an object the migrations create (table, index, trigger) that is missing or
  /// differs, e.g. a trigger another client dropped (so `animals.suspicion_level` no longer
  /// follows `suspicion_levels`) or a table `sqlite-utils transform` rebuilt without its indexes
  /// and triggers (docs/schema.md "A damaged schema"). Objects of other tools are not faults
  /// here.
  ///
  /// Cheap when the schema is intact: one query on `sqlite_schema`, compared with the schema
  /// the migrations make, which the build embeds (`MigrationEmbedder`). Only when they differ
  /// does it run the full comparison of `check` (`SchemaComparison`), which builds the
  /// migrations' schema in memory. A file whose schema version is not this binary's latest is
  /// not judged (empty).
  ///
  /// - Returns: The faults, empty when the schema is the migrations'.
  /// - Throws: `SQLiteError` when the schema cannot be read.
  public func schemaDamage() throws -> [CheckFinding] {
    let rows = try statement(
      """
      SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_schema
      WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
      """)
    var matched = 0
    var intact = true
    while try rows.step() {
      guard let expected = embeddedSchema[rows.text(at: 1)] else { continue }
      guard
        expected.sql == rows.text(at: 3), expected.type == rows.text(at: 0),
        expected.table == rows.text(at: 2)
      else {
        intact = false
        break
      }
      matched += 1
    }
    if intact && matched == embeddedSchema.count { return [] }
    let version = try Self.migrator.currentVersion(of: connection)
    guard version == Self.migrator.latestVersion else { return [] }
    return try SchemaComparison.findings(connection, version: version, includingForeign: false)
      .filter { $0.severity == .fault }
  }
}
