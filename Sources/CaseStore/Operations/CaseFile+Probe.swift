import SQLiteKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One look at a file before SQLite opens it: whether it exists, whether it is a regular file,
/// and the first 100 bytes of its header (the 16-byte magic and the `application_id` at bytes
/// 68-71). Every check of a file the case store makes before opening it reads one probe
/// (docs/design.md "The unit of work"): `CaseDatabase` takes one, and the refusals are decided
/// from it.
struct CaseFileProbe {
  // MARK: - Properties

  /// What was found at the path.
  enum State {
    /// Nothing at the path (`ENOENT`).
    case missing
    /// The path exists but could not be opened for reading; the `errno`.
    case unreadable(Int32)
    /// A directory, FIFO, socket or device.
    case notRegular
    /// A regular file (after symbolic links) of `size` bytes starting with `header` (at most
    /// 100 bytes; fewer for a shorter file).
    case regular(size: Int, header: [UInt8])
  }

  /// The path looked at.
  let path: String
  /// What was found.
  let state: State

  // MARK: - Init

  /// Looks at `path` once: one `open(2)` (non-blocking, so a FIFO does not block), one
  /// `fstat(2)` and one `pread(2)` of 100 bytes. Tells the task's
  /// ``CaseFile/fileCheckObserver`` (tests count the looks through it).
  init(_ path: String) {
    self.path = path
    CaseFile.fileCheckObserver?(path)
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else {
      state = errno == ENOENT ? .missing : .unreadable(errno)
      return
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      state = .notRegular
      return
    }
    var header = [UInt8](repeating: 0, count: 100)
    let count = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 100, 0) }
    state = .regular(size: Int(info.st_size), header: Array(header.prefix(max(count, 0))))
  }

  // MARK: - Checks

  /// Whether there is nothing at the path.
  var isMissing: Bool {
    if case .missing = state { return true }
    return false
  }

  /// Throws unless the file is a regular file that starts with SQLite's 16-byte header
  /// `SQLite format 3\0` (an empty file is an empty database when `allowEmpty`).
  ///
  /// - Throws: ``CaseFileError/missing(_:)``, `FileOperationError` when it cannot be read,
  ///   ``CaseFileError/notADatabase(_:)`` for a directory, FIFO, device, or other bytes.
  func requireSQLite(allowEmpty: Bool) throws {
    switch state {
    case .missing: throw CaseFileError.missing(path)
    case .unreadable(let code): throw FileOperationError(path: path, operation: "read", code: code)
    case .notRegular: throw CaseFileError.notADatabase(path)
    case .regular(let size, let header):
      if size == 0 && allowEmpty { return }
      guard header.count >= 16, header.prefix(16).elementsEqual("SQLite format 3\u{0}".utf8)
      else { throw CaseFileError.notADatabase(path) }
    }
  }

  /// The `PRAGMA application_id` in the header: the big-endian 32-bit integer at bytes 68-71.
  ///
  /// - Throws: What ``requireSQLite(allowEmpty:)`` throws (an empty file too), or
  ///   ``CaseFileError/damaged(_:problems:)`` when the file is shorter than the 100-byte header.
  /// - SQLite: <https://sqlite.org/fileformat2.html#the_database_header>
  func applicationID() throws -> Int32 {
    try requireSQLite(allowEmpty: false)
    guard case .regular(_, let header) = state, header.count == 100 else {
      throw CaseFileError.damaged(path, problems: ["the file ends inside its 100-byte header"])
    }
    let value = header[68..<72].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    return Int32(bitPattern: value)
  }

  /// Throws unless the file may become or is a case database: missing or empty, or marked with
  /// ``CaseDatabase/applicationID``, or a SQLite file without any table yet, or an older case
  /// database (application_id 0 with migration records this binary knows). Only a file that is
  /// not marked is opened (read-only) to read its schema.
  ///
  /// - Throws: ``CaseFileError/notACaseDatabase(_:reason:)``,
  ///   ``CaseFileError/notADatabase(_:)`` when the file is not SQLite, or `SQLiteError`.
  func requireCaseFileOrNew(busyTimeout: Int) throws {
    guard path != ":memory:" else { return }
    switch state {
    case .missing: return
    case .regular(let size, _) where size == 0: return
    default: break
    }
    guard try applicationID() != CaseDatabase.applicationID else { return }
    let connection = try Connection(path: path, mode: .readOnly, busyTimeout: busyTimeout)
    guard try connection.scalar("SELECT count(*) FROM sqlite_schema")?.integerValue != 0 else {
      return
    }
    try CaseFile.requireKnownMigrations(connection, path: path)
  }
}

extension CaseFile {
  /// Called with the path each time the case store looks at a file before opening it (one
  /// `open`, `fstat` and header read); `nil` (the default) outside tests. Task-local, so that
  /// a test counts only its own looks while other tests run.
  @TaskLocal static var fileCheckObserver: (@Sendable (String) -> Void)?
}
