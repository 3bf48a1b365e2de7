import Foundation

/// A fresh, private directory under the system's temporary directory, removed with everything
/// in it when ``remove()`` is called (``withTemporaryDirectory(_:)`` does so on every exit).
struct TemporaryDirectory {
  /// The directory's absolute path, without a trailing slash.
  let path: String

  /// Creates a new directory with `mkdtemp`, so that parallel tests never share one.
  init() throws {
    let base =
      NSTemporaryDirectory().hasSuffix("/") ? NSTemporaryDirectory() : NSTemporaryDirectory() + "/"
    var template = Array((base + "sqlitekit-tests.XXXXXX").utf8CString)
    guard let created = mkdtemp(&template) else {
      throw CocoaError(.fileWriteUnknown)
    }
    path = String(cString: created)
  }

  /// The path of `name` inside the directory.
  func file(_ name: String) -> String { path + "/" + name }

  /// Deletes the directory and its content.
  func remove() {
    try? FileManager.default.removeItem(atPath: path)
  }
}

/// Runs `body` with a new temporary directory and removes the directory afterwards, whether
/// `body` returns or throws. Connections opened inside `body` must not outlive it.
func withTemporaryDirectory<T>(_ body: (TemporaryDirectory) throws -> T) throws -> T {
  let directory = try TemporaryDirectory()
  defer { directory.remove() }
  return try body(directory)
}
