#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Connection {
  /// Lists the temporary files that killed writers of files (backups, changesets) left in the
  /// directory of `path`, whatever destination they were for: `.NAME.tmp-PID-RANDOM` (and its
  /// `-journal`), regular files whose writer is gone. A file being written is never listed, nor
  /// one the tool does not write: only an empty file or one that begins as the tool's files do
  /// (``ownTemporaryFileHeaders``, or a database whose header is not written yet; a `-journal` as
  /// SQLite's rollback journal) is listed, whatever its name (docs/operations.md "Leftover
  /// backup files").
  ///
  /// A writer is gone when no process `PID` exists here and no one holds the lock that
  /// ``OutputFile/replace(_:)`` keeps on its temporary file while it writes (an open file
  /// description lock on its first byte, which also covers a writer in another PID namespace
  /// or on another machine sharing the directory). Where such locks are not available (systems
  /// other than Linux), the file must also not have changed for `olderThan` seconds.
  ///
  /// Meant for reports such as `inspector check`: each path is a full-size leftover copy that
  /// the next backup into that directory removes (see
  /// ``removeStaleBackupFiles(besides:olderThan:)``). Nothing is changed.
  ///
  /// - Parameters:
  ///   - path: A database or backup path; its directory is searched (`.` for a bare name).
  ///   - olderThan: Seconds since the file last changed, where the lock cannot be tested
  ///     (default 10 minutes).
  /// - Returns: Full paths (directory + `/` + name), in directory order; empty when the
  ///   directory cannot be read.
  public static func staleBackupFiles(besides path: String, olderThan: Int = 600) -> [String] {
    deadWritersFiles(besides: path, olderThan: olderThan).filter(\.own).map(\.path)
  }

  /// Lists the files in the directory of `path` that are named like the temporary file of a
  /// killed writer (the rule of ``staleBackupFiles(besides:olderThan:)``) but are not files the
  /// tool writes (a text file `.thesis.txt.tmp-PID-7`, say): they are never removed. Meant
  /// for reports such as `inspector check`. Nothing is changed.
  ///
  /// - Parameters:
  ///   - path: A database or backup path; its directory is searched (`.` for a bare name).
  ///   - olderThan: As for ``staleBackupFiles(besides:olderThan:)``.
  /// - Returns: Full paths, in directory order; empty when the directory cannot be read.
  public static func foreignTemporaryFiles(besides path: String, olderThan: Int = 600)
    -> [String]
  {
    deadWritersFiles(besides: path, olderThan: olderThan).filter { !$0.own }.map(\.path)
  }

  /// The files named `.NAME.tmp-PID-RANDOM` (or its `-journal`) in the directory of `path`
  /// whose writer is gone, each with whether the tool writes such a file
  /// (``isOwnTemporaryFile(at:size:journal:)``).
  private static func deadWritersFiles(besides path: String, olderThan: Int)
    -> [(path: String, own: Bool)]
  {
    let directory = Connection.directory(of: path)
    guard let stream = opendir(directory) else { return [] }
    defer { closedir(stream) }
    var stale: [(path: String, own: Bool)] = []
    let now = time(nil)
    while let entry = readdir(stream) {
      let file = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      guard let pid = backupProcessID(ofTemporaryFile: file) else { continue }
      // A process of that id exists here (or may: EPERM): its writer may be running. This
      // also keeps the lock test below away from this process's own temporary files.
      if kill(pid, 0) == 0 || errno != ESRCH { continue }
      let full = "\(directory)/\(file)"
      var info = stat()
      guard lstat(full, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
      let isJournal = file.hasSuffix("-journal")
      // Only a file the tool writes: someone's `.notes.tmp-1-2` is left alone, whatever its name.
      let own = isOwnTemporaryFile(at: full, size: Int(info.st_size), journal: isJournal)
      let main = isJournal ? String(full.dropLast("-journal".count)) : full
      switch temporaryFileLock(at: main) {
      case .held: continue
      case .free: break
      case .unknown:
        #if os(Linux)
          let changed = info.st_mtim.tv_sec
        #else
          let changed = info.st_mtimespec.tv_sec
        #endif
        guard Int(now - changed) >= olderThan else { continue }
      }
      stale.append((full, own))
    }
    return stale
  }

  /// How the files the tool writes through ``OutputFile`` begin: a database (a backup, `SQLite
  /// format 3` and a NUL) and a changeset file (its header line's first words, docs/changes.md).
  /// A temporary file is a leftover of the tool only when it is empty or begins with one of
  /// these.
  public static let ownTemporaryFileHeaders: [[UInt8]] = [
    Array("SQLite format 3\u{0}".utf8), Array("fruit-inspectors changeset ".utf8),
  ]

  /// How a rollback journal begins: its magic number, or eight zero bytes while SQLite has not
  /// yet synced it (it writes the magic number last).
  ///
  /// SQLite: <https://sqlite.org/fileformat.html#the_rollback_journal>
  static let journalHeaders: [[UInt8]] = [
    [0xD9, 0xD5, 0x05, 0xF9, 0x20, 0xA1, 0x63, 0xD7], [UInt8](repeating: 0, count: 8),
  ]

  /// Whether the regular file at `path` (of `size` bytes) is one the tool writes: empty, or
  /// beginning with one of ``ownTemporaryFileHeaders`` (with one of the rollback journal's
  /// headers when `journal`), or a database copy killed before its first page was written
  /// (SQLite writes page 1, which holds the header, only when the copy commits): a size that
  /// is a whole number of 512-byte units with the 100 bytes of the header still zero. `false`
  /// when it cannot be read.
  static func isOwnTemporaryFile(at path: String, size: Int, journal: Bool) -> Bool {
    if size == 0 { return true }
    let headers = journal ? journalHeaders : ownTemporaryFileHeaders
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    let length = 100
    var buffer = [UInt8](repeating: 0, count: length)
    var count = 0
    while count < length {
      let got = buffer.withUnsafeMutableBytes {
        read(descriptor, $0.baseAddress! + count, length - count)
      }
      if got < 0, errno == EINTR { continue }
      guard got > 0 else { break }
      count += got
    }
    let start = buffer.prefix(count)
    if headers.contains(where: { start.starts(with: $0) }) { return true }
    return !journal && count == length && size % 512 == 0 && start.allSatisfy { $0 == 0 }
  }

  /// Locks the first byte of a temporary file being written (an open file description lock,
  /// held until `descriptor` is closed, unaffected by other descriptors of the file closing),
  /// so that ``staleBackupFiles(besides:olderThan:)`` in any process can tell it is in use.
  /// SQLite never locks that byte, so its own locks on the file are not in the way. Does
  /// nothing where such locks do not exist.
  ///
  /// - Parameter descriptor: A descriptor of the file, open for writing.
  static func lockTemporaryFile(_ descriptor: Int32) {
    #if os(Linux)
      var lock = firstByteLock()
      _ = fcntl(descriptor, openFileDescriptionSetLock, &lock)
    #endif
  }

  /// Whether someone holds the lock of ``lockTemporaryFile(_:)`` on the file at `path`.
  enum TemporaryFileLock {
    /// A writer holds it: the file is in use.
    case held
    /// No one holds it (or the file is gone: a `-journal` without its database).
    case free
    /// It cannot be told (no such locks here, or the file cannot be opened).
    case unknown
  }

  /// Tests the lock of ``lockTemporaryFile(_:)`` on `path` without taking it.
  static func temporaryFileLock(at path: String) -> TemporaryFileLock {
    #if os(Linux)
      let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
      guard descriptor >= 0 else { return errno == ENOENT ? .free : .unknown }
      defer { close(descriptor) }
      var lock = firstByteLock()
      guard fcntl(descriptor, openFileDescriptionGetLock, &lock) == 0 else { return .unknown }
      return lock.l_type == Int16(F_UNLCK) ? .free : .held
    #else
      return .unknown
    #endif
  }

  #if os(Linux)
    /// `F_OFD_GETLK` and `F_OFD_SETLK` (Linux 3.15; the same on every architecture), which
    /// Glibc declares only under `_GNU_SOURCE`.
    private static let openFileDescriptionGetLock: Int32 = 36
    private static let openFileDescriptionSetLock: Int32 = 37

    /// A write lock on byte 0.
    private static func firstByteLock() -> flock {
      var lock = flock()
      lock.l_type = Int16(F_WRLCK)
      lock.l_whence = Int16(SEEK_SET)
      lock.l_start = 0
      lock.l_len = 1
      return lock
    }
  #endif

  /// Removes the files ``staleBackupFiles(besides:olderThan:)`` lists: the leftovers of killed
  /// writers to any destination in the directory of `path`.
  ///
  /// - Parameters:
  ///   - path: A destination; its directory is swept.
  ///   - olderThan: Seconds since the file last changed, where the writer's lock cannot be
  ///     tested (default 10 minutes).
  /// - Returns: The paths removed.
  @discardableResult
  public static func removeStaleBackupFiles(besides path: String, olderThan: Int = 600)
    -> [String]
  {
    staleBackupFiles(besides: path, olderThan: olderThan).filter { unlink($0) == 0 }
  }

  /// The process id in a backup's temporary file name `.NAME.tmp-PID-RANDOM` or
  /// `.NAME.tmp-PID-RANDOM-journal` (NAME not empty, PID and RANDOM decimal); `nil` for any
  /// other name.
  static func backupProcessID(ofTemporaryFile file: String) -> Int32? {
    guard file.hasPrefix(".") else { return nil }
    // The last `.tmp-`, after a NAME of at least one character.
    var marker = file.endIndex
    while marker > file.startIndex, !file[marker...].hasPrefix(".tmp-") {
      marker = file.index(before: marker)
    }
    guard file[marker...].hasPrefix(".tmp-"), marker > file.index(after: file.startIndex) else {
      return nil
    }
    var rest = file[marker...].dropFirst(".tmp-".count)
    if rest.hasSuffix("-journal") { rest = rest.dropLast("-journal".count) }
    let parts = rest.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2, let pid = Int32(parts[0]), pid > 0, UInt32(parts[1]) != nil
    else { return nil }
    return pid
  }
}
