import CNettle

/// SHA-256 (FIPS 180-4) of a byte sequence, as 64 lowercase hex digits.
///
/// Used for migration checksums, where any edit of an applied file must be noticed. Neither
/// Foundation on Linux nor SQLite's stock build offers a hash, so ``SHA256`` is Nettle's
/// (Debian's `nettle-dev`), tested against the FIPS example vectors.
///
/// - Parameter bytes: The message.
/// - Returns: The digest in hex, e.g. `ba7816bf...` for "abc".
public func sha256Hex<Bytes: Collection>(of bytes: Bytes) -> String where Bytes.Element == UInt8 {
  var hasher = SHA256()
  hasher.update(bytes)
  return SHA256.hex(hasher.finalize())
}

/// SHA-256 (FIPS 180-4) fed a piece at a time, so that a long message (a change set of the
/// history with a million changes) is hashed without being held whole.
///
/// Feed it with ``update(_:)`` (or the typed helpers), then read the 32-byte digest once with
/// ``finalize()``. Hashing "a" then "bc" gives the digest of "abc": how the message is cut
/// makes no difference. The work is Nettle's `sha256_update`, which uses the CPU's SHA
/// instructions where it has them (the history's seals hash every change, `check` all of them
/// again). A value: a copy hashes on from where the original stood.
public struct SHA256: @unchecked Sendable {
  // @unchecked: the context is a plain C struct of numbers and bytes, copied with the value;
  // nothing in it points elsewhere.

  /// Nettle's running state: the hash words, the count of blocks and the bytes pending.
  private var context = sha256_ctx()

  /// Bytes fed but not handed to Nettle yet: the first ``pendingCount``. The history's seals
  /// feed a change a field at a time (a tag byte, an 8-byte number), and one Nettle call a
  /// field cost more than the hashing (about 20 calls a change). Kept inline, so a copy of
  /// the hasher copies them too.
  private var pending = InlineArray<256, UInt8>(repeating: 0)

  /// How many of ``pending``'s bytes are fed, 0 to 255.
  private var pendingCount = 0

  /// A hasher of the empty message so far.
  public init() {
    nettle_sha256_init(&context)
  }

  /// Appends `bytes` to the message.
  public mutating func update<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
    let contiguous: Void? = bytes.withContiguousStorageIfAvailable { update(buffer: $0) }
    if contiguous == nil { Array(bytes).withUnsafeBufferPointer { update(buffer: $0) } }
  }

  /// Appends `buffer`: gathered with the pending bytes when it fits beside them, else handed to
  /// Nettle after them.
  private mutating func update(buffer: UnsafeBufferPointer<UInt8>) {
    guard !buffer.isEmpty else { return }
    if pendingCount + buffer.count < pending.count {
      let offset = pendingCount
      withUnsafeMutableBytes(of: &pending) {
        UnsafeMutableRawBufferPointer(rebasing: $0[offset..<offset + buffer.count])
          .copyMemory(from: UnsafeRawBufferPointer(buffer))
      }
      pendingCount += buffer.count
      return
    }
    flush()
    nettle_sha256_update(&context, buffer.count, buffer.baseAddress!)
  }

  /// Hands the pending bytes to Nettle.
  private mutating func flush() {
    guard pendingCount > 0 else { return }
    let count = pendingCount
    pending.span.withUnsafeBufferPointer {
      nettle_sha256_update(&context, count, $0.baseAddress!)
    }
    pendingCount = 0
  }

  /// Appends one byte to the message.
  public mutating func update(byte: UInt8) {
    pending[pendingCount] = byte
    pendingCount += 1
    if pendingCount == pending.count { flush() }
  }

  /// Appends `value` as 8 bytes, most significant first.
  public mutating func update(bigEndian value: UInt64) {
    if pendingCount + 8 >= pending.count { flush() }
    let offset = pendingCount
    withUnsafeMutableBytes(of: &pending) {
      $0.storeBytes(of: value.bigEndian, toByteOffset: offset, as: UInt64.self)
    }
    pendingCount += 8
  }

  /// The digest of everything fed: 32 bytes. The hasher is spent afterwards (feed a new one).
  public mutating func finalize() -> [UInt8] {
    flush()
    return [UInt8](unsafeUninitializedCapacity: 32) { digest, count in
      nettle_sha256_digest(&context, 32, digest.baseAddress!)
      count = 32
    }
  }

  /// The SHA-256 of `bytes` in one call: 32 bytes.
  public static func digest<Bytes: Collection>(of bytes: Bytes) -> [UInt8]
  where Bytes.Element == UInt8 {
    var hasher = SHA256()
    hasher.update(bytes)
    return hasher.finalize()
  }

  /// `bytes` as lowercase hex digits, two per byte.
  public static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
    let digits = Array("0123456789abcdef")
    var text = ""
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0xF)])
    }
    return text
  }
}
