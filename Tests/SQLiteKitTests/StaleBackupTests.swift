import Testing

@testable import SQLiteKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Temporary files of killed backups are swept, those of live ones and other files are not.
@Suite struct StaleBackupTests {
  func touch(_ path: String, secondsAgo: Int) {
    let descriptor = open(path, O_CREAT | O_WRONLY, 0o600)
    close(descriptor)
    let then = time(nil) - secondsAgo
    var times = [timespec(tv_sec: then, tv_nsec: 0), timespec(tv_sec: then, tv_nsec: 0)]
    _ = utimensat(AT_FDCWD, path, &times, 0)
  }

  func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

  /// Leftovers of dead processes are swept at once, however fresh (they were once kept for ten
  /// minutes); a live process's files and names that only look alike are not.
  @Test func removesOnlyFilesOfDeadProcessesForAnyDestination() throws {
    try withTemporaryDirectory { directory in
      let destination = directory.file("backup.sqlite")
      // A process id that cannot exist (above the kernel's maximum).
      let dead = directory.file(".backup.sqlite.tmp-999999999-12")
      let deadJournal = dead + "-journal"
      let deadButFresh = directory.file(".backup.sqlite.tmp-999999998-7")
      let alive = directory.file(".backup.sqlite.tmp-\(getpid())-3")
      let otherDestination = directory.file(".other.sqlite.tmp-999999999-5")
      let otherJournal = directory.file(".cases-20240101T000000Z.sqlite.tmp-999999997-9-journal")
      // Names that only look alike: not a temporary file of a backup.
      let lookalikes = [".notes.tmp", ".x.tmp-abc-1", "plain.tmp-999999999-1", ".tmp-999999999-1"]
        .map(directory.file)
      touch(dead, secondsAgo: 3600)
      touch(deadJournal, secondsAgo: 3600)
      touch(deadButFresh, secondsAgo: 5)
      touch(alive, secondsAgo: 3600)
      touch(otherDestination, secondsAgo: 3600)
      touch(otherJournal, secondsAgo: 3600)
      for lookalike in lookalikes { touch(lookalike, secondsAgo: 3600) }
      let stale: Set = [dead, deadJournal, deadButFresh, otherDestination, otherJournal]
      // Listing changes nothing.
      #expect(Set(Connection.staleBackupFiles(besides: destination)) == stale)
      #expect(stale.allSatisfy(exists))
      let removed = Connection.removeStaleBackupFiles(besides: destination)
      #expect(Set(removed) == stale)
      #expect(!stale.contains(where: exists))
      #expect(exists(alive))
      #expect(lookalikes.allSatisfy(exists))
    }
  }

  /// Only files the tool writes are leftovers: empty, a database, a changeset, a rollback
  /// journal (magic number or the zeros SQLite writes first). A text file of the same name
  /// pattern is someone else's and stays.
  @Test func onlyFilesTheToolWritesAreLeftovers() throws {
    try withTemporaryDirectory { directory in
      let destination = directory.file("backup.sqlite")
      func plant(_ name: String, _ bytes: [UInt8]) -> String {
        let path = directory.file(name)
        let descriptor = open(path, O_CREAT | O_WRONLY, 0o600)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, bytes.count) }
        close(descriptor)
        return path
      }
      let database = directory.file(".b.sqlite.tmp-999999999-1")
      let connection = try Connection(path: database, mode: .readWriteCreate)
      try connection.execute("CREATE TABLE t(x)")
      let changeset = plant(
        ".x.changes.tmp-999999999-2", Array("fruit-inspectors changeset 1 schema 9\n".utf8))
      let journal = plant(
        ".b.sqlite.tmp-999999999-1-journal", [0xD9, 0xD5, 0x05, 0xF9, 0x20, 0xA1, 0x63, 0xD7, 0])
      let unsynced = plant(".c.sqlite.tmp-999999999-3-journal", [UInt8](repeating: 0, count: 512))
      let text = plant(".thesis.txt.tmp-999999998-7", Array("draft\n".utf8))
      let textJournal = plant(".t.txt.tmp-999999998-8-journal", Array("draft\n".utf8))
      let almost = plant(".d.sqlite.tmp-999999998-9", Array("SQLite format 2\u{0}".utf8))
      // A copy killed before its first page (the header) was written: whole pages of zeros
      // at the start. Zeros that are no whole number of 512-byte units are not a database.
      let headerless = plant(
        ".e.sqlite.tmp-999999999-4",
        [UInt8](repeating: 0, count: 4096) + [1, 2, 3] + [UInt8](repeating: 0, count: 4093))
      let oddZeros = plant(".f.bin.tmp-999999998-5", [UInt8](repeating: 0, count: 700))
      let own: Set = [database, changeset, journal, unsynced, headerless]
      let foreign: Set = [text, textJournal, almost, oddZeros]
      #expect(Set(Connection.staleBackupFiles(besides: destination)) == own)
      #expect(Set(Connection.foreignTemporaryFiles(besides: destination)) == foreign)
      #expect(Set(Connection.removeStaleBackupFiles(besides: destination)) == own)
      #expect(!own.contains(where: exists))
      #expect(foreign.allSatisfy(exists))
      var buffer = [UInt8](repeating: 0, count: 16)
      let descriptor = open(text, O_RDONLY)
      let count = read(descriptor, &buffer, 16)
      close(descriptor)
      #expect(Array(buffer.prefix(max(count, 0))) == Array("draft\n".utf8))
    }
  }

  /// A writer whose process id is not visible here (another PID namespace, another machine
  /// sharing the directory) still holds the lock on its temporary file: the file, and its
  /// `-journal`, are in use and neither listed nor swept until the lock is gone.
  @Test func aLockedTemporaryFileOfAnUnseenProcessIsInUse() throws {
    try withTemporaryDirectory { directory in
      let destination = directory.file("backup.sqlite")
      let writing = directory.file(".backup.sqlite.tmp-999999996-4")
      let journal = writing + "-journal"
      touch(writing, secondsAgo: 3600)
      touch(journal, secondsAgo: 3600)
      let descriptor = open(writing, O_RDWR | O_CLOEXEC)
      #expect(descriptor >= 0)
      Connection.lockTemporaryFile(descriptor)
      #if os(Linux)
        #expect(Connection.staleBackupFiles(besides: destination) == [])
        #expect(Connection.removeStaleBackupFiles(besides: destination) == [])
        #expect(exists(writing) && exists(journal))
      #endif
      close(descriptor)
      #expect(Set(Connection.staleBackupFiles(besides: destination)) == [writing, journal])
    }
  }

  /// `OutputFile.replace` holds that lock while its body runs.
  @Test func replaceHoldsTheLockWhileWriting() throws {
    try withTemporaryDirectory { directory in
      let file = try OutputFile(
        path: directory.file("notes.txt"), writing: "a note", protecting: [])
      var seen: Connection.TemporaryFileLock?
      try file.replace { temporary, descriptor in
        _ = descriptor
        seen = Connection.temporaryFileLock(at: temporary)
      }
      #if os(Linux)
        #expect(seen == .held)
      #endif
      #expect(exists(directory.file("notes.txt")))
    }
  }

  @Test func backupToFileSweepsBeforeWriting() throws {
    try withTemporaryDirectory { directory in
      let source = try Connection(path: directory.file("source.sqlite"), mode: .readWriteCreate)
      try source.execute("CREATE TABLE t(x); INSERT INTO t VALUES (42)")
      let destination = directory.file("copy.sqlite")
      let leftover = directory.file(".copy.sqlite.tmp-999999999-1")
      // A killed backup to another destination in the same directory.
      let otherLeftover = directory.file(".copy-20240101.sqlite.tmp-999999999-2")
      touch(leftover, secondsAgo: 3600)
      touch(otherLeftover, secondsAgo: 3600)
      try source.backup(toFile: destination)
      #expect(!exists(leftover))
      #expect(!exists(otherLeftover))
      let copy = try Connection(path: destination, mode: .readOnly)
      #expect(try copy.scalar("SELECT x FROM t") == .integer(42))
    }
  }

  @Test func aThrowingProgressStopsTheBackupAndLeavesNothing() throws {
    struct Stop: Error {}
    try withTemporaryDirectory { directory in
      let source = try Connection(path: directory.file("source.sqlite"), mode: .readWriteCreate)
      try source.execute(
        """
        CREATE TABLE t(b BLOB);
        WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 200)
        INSERT INTO t SELECT randomblob(4000) FROM c;
        """)
      let destination = directory.file("copy.sqlite")
      #expect(throws: Stop.self) {
        try source.backup(toFile: destination, pagesPerStep: 10) { _, _ in throw Stop() }
      }
      let stream = try #require(opendir(directory.path))
      defer { closedir(stream) }
      var names: [String] = []
      while let entry = readdir(stream) {
        names.append(
          withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
          })
      }
      #expect(!names.contains { $0.contains("copy.sqlite") }, "\(names)")
    }
  }
}
