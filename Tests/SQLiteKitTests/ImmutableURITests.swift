import Testing

@testable import SQLiteKit

/// The `immutable=1` URI of a read-only connection in an unwritable directory keeps every byte
/// of the path.
///
/// SQLite: <https://sqlite.org/uri.html>
@Suite struct ImmutableURITests {
  @Test(arguments: [
    ("/tmp/a b/c.sqlite", "file:///tmp/a%20b/c.sqlite?immutable=1"),
    ("rel/x?y#z%.sqlite", "file:rel/x%3Fy%23z%25.sqlite?immutable=1"),
    ("/tmp/Rénard.sqlite", "file:///tmp/R%C3%A9nard.sqlite?immutable=1"),
  ])
  func immutableURIEscapesThePath(path: String, uri: String) {
    #expect(Connection.immutableURI(path: path) == uri)
  }
}
