internal import CSQLite

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Connection {
  /// The file name and extra open flags for `sqlite3_open_v2`: `path` itself, or, for a
  /// read-only connection to a database in a directory this process cannot write, an
  /// `immutable=1` URI.
  ///
  /// A WAL database needs its `-shm` file even to be read, and SQLite cannot create it in such a
  /// directory, so every read would fail. SQLite documents the way out: a connection opened
  /// with the `immutable=1` URI parameter reads the main file without locks or `-shm`. That is
  /// only safe when the main file is complete, so it is used only when no `-wal` (committed
  /// transactions not yet in the main file) and no `-journal` (a hot rollback journal) exists
  /// beside it. A process that can write the directory must not change the file while an
  /// immutable connection reads it; here that is the directory's owner, whom the permissions
  /// already keep apart from this process.
  ///
  /// - Returns: `(path, 0)` in every other case (writable modes, `:memory:`, a writable
  ///   directory, a `-wal` or `-journal` present).
  /// - SQLite: <https://sqlite.org/wal.html#readonly>, <https://sqlite.org/uri.html>
  static func openTarget(path: String, mode: OpenMode) -> (filename: String, flags: Int32) {
    guard mode == .readOnly, path != ":memory:", !path.isEmpty,
      access(Connection.directory(of: path), W_OK) != 0,
      !Connection.fileExists(path + "-wal"), !Connection.fileExists(path + "-journal")
    else { return (path, 0) }
    return (immutableURI(path: path), SQLITE_OPEN_URI)
  }

  /// `file:` URI naming `path` with `immutable=1`: every byte outside the URI's unreserved set
  /// (letters, digits, `-._~`) and `/` is percent-escaped, so `?`, `#`, `%` and spaces in a
  /// path stay part of it. A relative path stays relative.
  ///
  /// SQLite: <https://sqlite.org/uri.html>
  static func immutableURI(path: String) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var escaped: [UInt8] = []
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
        escaped.append(byte)
      default:
        escaped += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
      }
    }
    let body = String(decoding: escaped, as: UTF8.self)
    return (path.hasPrefix("/") ? "file://" : "file:") + body + "?immutable=1"
  }

  private static func fileExists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
  }
}
