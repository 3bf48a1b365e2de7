import Foundation
import Testing

@testable import SQLiteKit

/// SHA-256 against the FIPS 180-4 example vectors and lengths around the padding boundary.
@Suite struct SHA256Tests {
  @Test(
    "FIPS 180-4 example vectors",
    arguments: [
      ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
      ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
      (
        "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
      ),
    ])
  func fipsVector(message: String, digest: String) {
    #expect(sha256Hex(of: message.utf8) == digest)
  }

  @Test func oneMillionA() {
    let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
    #expect(
      sha256Hex(of: message) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  /// Digests of `count` bytes "x", from `head -c count /dev/zero | tr '\0' x | sha256sum`.
  @Test(
    "Lengths around one and two blocks",
    arguments: [
      (55, "d5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072"),
      (56, "04c26261370ee7541549d16dee320c723e3fd14671e66a099afe0a377c16888e"),
      (63, "75220b47218278e656f2013bb8f0c455a25eaf01e86c64924e9d48d89776d6f2"),
      (64, "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c"),
      (65, "9537c5fdf120482f7d58d25e9ed583f52c02b4e304ea814db1633ad565aed7e9"),
      (119, "000b48d4edf0fa7bee3c6236ecd2785baa5db4eeb8bb54341b029e0d9fa5fb0c"),
      (120, "13f05a0b594787f5ecd315edc96141bd3243203d1b7d4f0836f37308b276ba98"),
    ])
  func paddingBoundary(count: Int, digest: String) {
    let message = [UInt8](repeating: UInt8(ascii: "x"), count: count)
    #expect(sha256Hex(of: message) == digest)
  }

  @Test func multibyteTextIsHashedAsUTF8() {
    #expect(
      sha256Hex(of: "🐦‍⬛".utf8) == "383186cdfb435840cf9ef2e970b8ab504f035d482b3495d35195001b9d322f84")
  }

  @Test func digestIsSixtyFourLowercaseHexDigits() {
    let digest = sha256Hex(of: "pear".utf8)
    #expect(digest.count == 64)
    #expect(digest.allSatisfy { "0123456789abcdef".contains($0) })
  }

  /// However the message is cut into updates, the digest is the one-shot digest (which, for
  /// these 1,000 bytes, goes to Nettle in one call; short pieces gather first).
  @Test(arguments: [1, 3, 63, 64, 65, 200, 255, 256, 257])
  func incrementalUpdatesGiveTheOneShotDigest(piece: Int) {
    let message = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    var hasher = SHA256()
    for start in stride(from: 0, to: message.count, by: piece) {
      hasher.update(message[start..<min(start + piece, message.count)])
    }
    let digest = hasher.finalize()
    #expect(digest.count == 32)
    #expect(SHA256.hex(digest) == sha256Hex(of: message))
    #expect(SHA256.digest(of: message) == digest)
  }

  /// Pieces of mixed sizes, typed helpers among them, and a copy taken while bytes are still
  /// gathered: each hasher gives the digest of exactly what it was fed.
  @Test func aCopyTakenMidwayHashesOnFromThere() {
    let message = (0..<2000).map { UInt8(truncatingIfNeeded: $0 &* 17 &+ 3) }
    var hasher = SHA256()
    var fed = 0
    var copy: SHA256?
    var copied = 0
    for piece in [1, 8, 250, 1, 300, 7, 255, 2, 9] {
      hasher.update(message[fed..<fed + piece])
      fed += piece
      if piece == 7 {
        copy = hasher
        copied = fed
      }
    }
    hasher.update(byte: 0x42)
    hasher.update(bigEndian: 0x0102_0304_0506_0708)
    let tail: [UInt8] = [0x42, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08]
    #expect(hasher.finalize() == SHA256.digest(of: Array(message[..<fed]) + tail))
    #expect(copy?.finalize() == SHA256.digest(of: Array(message[..<copied])))
    #expect(copied == 567)
  }

  /// The typed helpers feed the bytes they document: one byte, and 8 bytes big-endian.
  @Test func typedUpdatesFeedTheirBytes() {
    var typed = SHA256()
    typed.update(byte: 0x74)
    typed.update(bigEndian: 0x0102_0304_0506_0708)
    #expect(
      typed.finalize() == SHA256.digest(of: [0x74, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08]))
  }

  /// The digest of bytes written to a file equals what `sha256sum` prints for that file.
  @Test func agreesWithSha256sumOfAFile() throws {
    try withTemporaryDirectory { directory in
      // Every byte value, several blocks, a length that is no multiple of 64.
      let bytes = (0..<777).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 17) }
      let path = directory.file("message.bin")
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = ["sha256sum", path]
      let pipe = Pipe()
      process.standardOutput = pipe
      try process.run()
      let output = pipe.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      #expect(process.terminationStatus == 0)
      let printed = String(decoding: output, as: UTF8.self).prefix(64)
      var hasher = SHA256()
      hasher.update(bytes[..<100])
      hasher.update(bytes[100...])
      #expect(SHA256.hex(hasher.finalize()) == printed)
    }
  }
}
