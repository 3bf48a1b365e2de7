internal import CSQLite

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The VFS every ``Connection`` opens its files through: SQLite's default VFS (`unix`), with
/// one change in the files that hold statement journals once they spill out of memory.
///
/// Why it exists. A statement journal stays in memory up to
/// ``Connection/statementJournalSpillBytes`` and then moves to a temporary file, which it keeps
/// until the transaction ends, so every later statement of the transaction writes its journal
/// through system calls (`pwrite`, two a page). SQLite 3.40.1 writes the journal out in one call
/// per chunk of the threshold's size, and the unix VFS writes at most `0x1ffff` bytes in one call
/// (`seekAndWriteFd` masks the count), so above 128 KiB a spill failed with `SQLITE_FULL`
/// ("database or disk is full"). At 128 KiB, one write unit of row-by-row work spilled as soon
/// as one of its statements changed more than about thirty pages (a b-tree split in a removal
/// that cascades to four tables and their history), and went on at several times the cost
/// (docs/history.md "Size and cost").
///
/// What it changes. A file SQLite opens as a sub-journal (`SQLITE_OPEN_SUBJOURNAL`) or as the
/// rollback journal of a temporary database (`SQLITE_OPEN_TEMP_JOURNAL`: SQLite keeps those in
/// memory up to the same threshold) gets I/O methods whose `xWrite` hands the unix VFS at most
/// ``writePiece`` bytes a call, in order, stopping at the first error; every other method, and
/// every other file (database, WAL, shared memory, temporary tables), is the unix VFS's own.
///
/// SQLite: <https://sqlite.org/vfs.html>, <https://sqlite.org/c3ref/vfs.html> and
/// <https://sqlite.org/c3ref/io_methods.html>.
enum StatementJournalVFS {
  /// The name the VFS is registered under, passed to `sqlite3_open_v2`.
  static let name = "fruit-inspectors-unix"

  /// The most bytes one call of the wrapped `xWrite` passes to the unix VFS: 64 KiB, under
  /// its `0x1ffff` limit.
  static let writePiece: Int32 = 0x10000

  /// Registers the VFS once per process (not as the default) and answers whether it is
  /// registered; `false` when SQLite has no default VFS or registration failed, and then
  /// connections open with the default VFS (and a threshold it can take: see
  /// ``Connection/statementJournalSpillBytes``).
  static let isRegistered: Bool = register()

  /// The VFS the wrapper forwards to (SQLite's default when ``isRegistered`` was first read).
  nonisolated(unsafe) private static let base: UnsafeMutablePointer<sqlite3_vfs>? =
    sqlite3_vfs_find(nil)

  /// Where, in a wrapped journal's file object, the unix VFS's own I/O methods are kept: just
  /// past the base VFS's object, aligned for a pointer.
  private static let methodsOffset: Int = {
    let size = Int(base?.pointee.szOsFile ?? 0)
    let alignment = MemoryLayout<UnsafeRawPointer>.alignment
    return (size + alignment - 1) / alignment * alignment
  }()

  /// The I/O methods of a wrapped journal (version 1: a journal is never memory-mapped and has
  /// no shared memory).
  nonisolated(unsafe) private static let wrappedMethods: UnsafePointer<sqlite3_io_methods> = {
    let methods = UnsafeMutablePointer<sqlite3_io_methods>.allocate(capacity: 1)
    methods.initialize(
      to: sqlite3_io_methods(
        iVersion: 1,
        xClose: { file in realMethods(file).xClose!(file) },
        xRead: { file, buffer, amount, offset in
          realMethods(file).xRead!(file, buffer, amount, offset)
        },
        xWrite: { file, buffer, amount, offset in writeInPieces(file, buffer, amount, offset) },
        xTruncate: { file, size in realMethods(file).xTruncate!(file, size) },
        xSync: { file, flags in realMethods(file).xSync!(file, flags) },
        xFileSize: { file, size in realMethods(file).xFileSize!(file, size) },
        xLock: { file, lock in realMethods(file).xLock!(file, lock) },
        xUnlock: { file, lock in realMethods(file).xUnlock!(file, lock) },
        xCheckReservedLock: { file, out in realMethods(file).xCheckReservedLock!(file, out) },
        xFileControl: { file, op, argument in
          realMethods(file).xFileControl!(file, op, argument)
        },
        xSectorSize: { file in realMethods(file).xSectorSize!(file) },
        xDeviceCharacteristics: { file in realMethods(file).xDeviceCharacteristics!(file) },
        xShmMap: nil, xShmLock: nil, xShmBarrier: nil, xShmUnmap: nil, xFetch: nil,
        xUnfetch: nil))
    return UnsafePointer(methods)
  }()

  private static func register() -> Bool {
    guard let base else { return false }
    let vfs = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
    vfs.initialize(to: base.pointee)
    vfs.pointee.zName = UnsafePointer(strdup(name))
    vfs.pointee.pNext = nil
    vfs.pointee.pAppData = UnsafeMutableRawPointer(base)
    vfs.pointee.szOsFile = Int32(methodsOffset + MemoryLayout<UnsafeRawPointer>.size)
    vfs.pointee.xOpen = { _, name, file, flags, outFlags in
      StatementJournalVFS.open(name, file, flags, outFlags)
    }
    _ = wrappedMethods
    return sqlite3_vfs_register(vfs, 0) == SQLITE_OK
  }

  /// The files SQLite writes through an in-memory journal that spills at
  /// ``Connection/statementJournalSpillBytes``: statement journals (sub-journals), and the
  /// rollback journals of temporary databases (a case rebuilt `--as-of` is one).
  private static let spilledJournals = SQLITE_OPEN_SUBJOURNAL | SQLITE_OPEN_TEMP_JOURNAL

  /// Opens the file with the base VFS; a journal of ``spilledJournals`` then gets the wrapped
  /// methods, its own kept past the base's file object.
  private static func open(
    _ name: UnsafePointer<CChar>?, _ file: UnsafeMutablePointer<sqlite3_file>?, _ flags: Int32,
    _ outFlags: UnsafeMutablePointer<Int32>?
  ) -> Int32 {
    guard let base, let file else { return SQLITE_CANTOPEN }
    let rc = base.pointee.xOpen(base, name, file, flags, outFlags)
    guard rc == SQLITE_OK, flags & spilledJournals != 0, let own = file.pointee.pMethods
    else { return rc }
    UnsafeMutableRawPointer(file).storeBytes(
      of: own, toByteOffset: methodsOffset, as: UnsafePointer<sqlite3_io_methods>.self)
    file.pointee.pMethods = wrappedMethods
    return rc
  }

  /// The unix VFS's own methods of a wrapped journal.
  private static func realMethods(_ file: UnsafeMutablePointer<sqlite3_file>?)
    -> sqlite3_io_methods
  {
    UnsafeRawPointer(file!).load(
      fromByteOffset: methodsOffset, as: UnsafePointer<sqlite3_io_methods>.self
    ).pointee
  }

  /// Writes `amount` bytes at `offset` in pieces of at most ``writePiece`` bytes, in order;
  /// the first piece that fails ends the write with its result code.
  private static func writeInPieces(
    _ file: UnsafeMutablePointer<sqlite3_file>?, _ buffer: UnsafeRawPointer?, _ amount: Int32,
    _ offset: sqlite3_int64
  ) -> Int32 {
    let write = realMethods(file).xWrite!
    var done: Int32 = 0
    while done < amount {
      let piece = min(amount - done, writePiece)
      let rc = write(file, buffer.map { $0 + Int(done) }, piece, offset + sqlite3_int64(done))
      guard rc == SQLITE_OK else { return rc }
      done += piece
    }
    return SQLITE_OK
  }
}
