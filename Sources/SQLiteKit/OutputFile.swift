#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file a command writes (a backup, a changeset): the one rule every option or argument that
/// writes a file goes through (docs/operations.md "Files the tool writes").
///
/// The destination is resolved through symbolic links, so that a link stays a link and its
/// target receives the content. The final target must be a new path or an existing regular file
/// that is none of the SQLite databases in use (each given database, its `-wal`, `-shm` and
/// `-journal`, by name, through links or by hard link). The content is written to a temporary
/// file beside the target, synced and renamed over it, so the target is the old file or the
/// whole new one, never half of it; anything refused is left untouched.
///
/// ```swift
/// let file = try OutputFile(
///   path: "laptop.changes", writing: "a changeset",
///   protecting: [.init(path: "cases.sqlite", role: "the database")])
/// try file.write(Array(text.utf8))
/// ```
public struct OutputFile: Equatable, Sendable {
  /// A database in use that an output file may not replace.
  public struct ProtectedDatabase: Equatable, Sendable {
    /// The database's path as given (it may be a symbolic link or not exist).
    public var path: String
    /// How messages name it, e.g. `the database` or `the base`.
    public var role: String

    /// A database at `path` that messages call `role`.
    public init(path: String, role: String) {
      self.path = path
      self.role = role
    }
  }

  // MARK: - Properties

  /// The path as given (possibly a symbolic link).
  public let path: String
  /// The file actually replaced: `path` with every symbolic link followed (the link's target,
  /// which may not exist yet).
  public let target: String
  /// What is written, for messages: `a backup`, `a changeset`.
  public let what: String

  // MARK: - Init

  /// Resolves `path` and checks it against the rule; nothing is created or changed.
  ///
  /// Links are followed up to 40 levels, as the kernel does; a relative link target is read
  /// relative to the link's directory.
  ///
  /// - Parameters:
  ///   - path: The destination as the user gave it.
  ///   - what: What is written, for messages (`a backup`).
  ///   - protecting: The databases in use, whose files may not be replaced.
  /// - Throws: ``OutputFileError`` when the final target exists and is not a regular file (a
  ///   directory, character or block device such as `/dev/null`, FIFO or socket), when the
  ///   links loop, or when it is one of the protected databases' files.
  public init(path: String, writing what: String, protecting: [ProtectedDatabase]) throws {
    self.path = path
    self.what = what
    var current = path
    var resolved: String?
    for _ in 0..<40 {
      var info = stat()
      guard lstat(current, &info) == 0 else {
        // A new path (or one whose directory is missing: creating the file reports that).
        resolved = current
        break
      }
      switch info.st_mode & S_IFMT {
      case S_IFREG:
        resolved = current
      case S_IFLNK:
        current = OutputFile.readLink(current)
        continue
      default:
        throw OutputFileError(
          path: path, what: what,
          reason: "it is \(OutputFile.kind(of: info.st_mode)), not a regular file")
      }
      break
    }
    guard let resolved else {
      throw OutputFileError(path: path, what: what, reason: "it is a loop of symbolic links")
    }
    target = resolved
    for database in protecting {
      guard let suffix = clash(withDatabaseAt: database.path) else { continue }
      throw OutputFileError(
        path: path, what: what,
        reason: suffix.isEmpty
          ? "it is \(database.role) itself, which is in use"
          : "it is \(database.role)'s \(suffix) file, which SQLite needs")
    }
  }

  // MARK: - Public API

  /// Replaces the target with what `body` writes into a temporary file.
  ///
  /// The temporary file `.NAME.tmp-PID-RANDOM` is created beside the target (mode 0600) and
  /// locked for as long as this call runs (so that no one takes it for the leftover of a
  /// killed process, see ``Connection/staleBackupFiles(besides:olderThan:)``); after `body`
  /// returns it is synced, renamed over the target, and the directory is synced. Leftovers of
  /// killed writers in the directory are removed first.
  ///
  /// - Parameter body: Writes the content; gets the temporary file's path and an open,
  ///   writable descriptor of it (closed by this call).
  /// - Throws: ``FileOperationError`` when the temporary file cannot be created (missing or
  ///   unwritable directory), synced or renamed; what `body` throws. The temporary file (and
  ///   its `-journal`) is removed on failure.
  public func replace(_ body: (_ temporary: String, _ descriptor: Int32) throws -> Void) throws {
    let directory = Connection.directory(of: target)
    let name = target.split(separator: "/").last.map(String.init) ?? target
    Connection.removeStaleBackupFiles(besides: target)
    let temporary = "\(directory)/.\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let descriptor = open(temporary, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw FileOperationError(path: path, operation: "create", code: errno)
    }
    Connection.lockTemporaryFile(descriptor)
    // Closed last: closing a descriptor drops the process's POSIX locks on the file, so it
    // must outlive every SQLite connection `body` opened on it.
    defer { close(descriptor) }
    var renamed = false
    defer {
      if !renamed {
        unlink(temporary)
        unlink(temporary + "-journal")
      }
    }
    try body(temporary, descriptor)
    try Connection.sync(file: temporary)
    guard rename(temporary, target) == 0 else {
      throw FileOperationError(path: path, operation: "rename a temporary file to", code: errno)
    }
    renamed = true
    try Connection.sync(file: directory)
  }

  /// Replaces the target with `bytes` (see ``replace(_:)``).
  ///
  /// - Throws: ``FileOperationError`` when a step fails (`write` as the operation when the
  ///   bytes cannot be written, e.g. a full disk); the target is then left as it was.
  public func write(_ bytes: [UInt8]) throws {
    try replace { temporary, descriptor in
      var offset = 0
      while offset < bytes.count {
        let written = bytes.withUnsafeBytes {
          OutputFile.systemWrite(descriptor, $0.baseAddress! + offset, bytes.count - offset)
        }
        if written < 0, errno == EINTR { continue }
        guard written > 0 else {
          throw FileOperationError(path: path, operation: "write", code: errno)
        }
        offset += written
      }
    }
  }

  // MARK: - Private helpers

  /// `write(2)` (the method ``write(_:)`` hides its name).
  private static func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int)
    -> Int
  {
    #if canImport(Glibc)
      Glibc.write(descriptor, buffer, count)
    #else
      Darwin.write(descriptor, buffer, count)
    #endif
  }

  /// The target of the link at `path`, made relative to the link's directory when relative.
  private static func readLink(_ path: String) -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink(path, &buffer, buffer.count - 1)
    guard count > 0 else { return path }
    let link = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    if link.hasPrefix("/") { return link }
    return Connection.directory(of: path) + "/" + link
  }

  private static func kind(of mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFDIR: "a directory"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFIFO: "a FIFO"
    case S_IFSOCK: "a socket"
    default: "not a regular file"
    }
  }
}

/// An output file refused by ``OutputFile``'s rule; it is left untouched.
public struct OutputFileError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The destination as given.
  public let path: String
  /// What was to be written, e.g. `a backup`.
  public let what: String
  /// Why, e.g. `it is a character device, not a regular file`.
  public let reason: String

  /// `cannot write a backup to /dev/null: it is a character device, not a regular file`.
  public var description: String {
    "cannot write \(what) to \(path): \(reason)"
  }
}
