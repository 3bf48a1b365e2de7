@testable import SQLiteKit

extension TemporaryDirectory {
  /// Creates the database file `name` in the directory, runs `sql` on it and closes it again, for
  /// a test that then opens the file the way it means to test.
  ///
  /// - Returns: The file's path.
  func database(_ name: String, running sql: String) throws -> String {
    let path = file(name)
    let creator = try Connection(path: path, mode: .readWriteCreate)
    try creator.execute(sql)
    return path
  }

  /// `case.sqlite` with one table, `suspect (name TEXT)`, holding one row: `dove`.
  func oneSuspectDatabase() throws -> String {
    try database(
      "case.sqlite",
      running: "CREATE TABLE suspect (name TEXT); INSERT INTO suspect VALUES ('dove')")
  }
}
