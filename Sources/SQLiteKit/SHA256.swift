/// SHA-256 (FIPS 180-4) of a byte sequence, as 64 lowercase hex digits.
///
/// Used for migration checksums, where any edit of an applied file must be noticed. Neither
/// Foundation on Linux nor SQLite's stock build offers a hash, hence this short implementation,
/// tested against the FIPS example vectors.
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
/// makes no difference.
public struct SHA256: Sendable {
  /// The running hash state (H0...H7).
  private var state: [UInt32] = [
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a,
    0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
  ]
  /// Bytes not yet hashed: fewer than 64.
  private var pending: [UInt8] = []
  /// Message bytes fed so far.
  private var length: UInt64 = 0
  /// The message schedule, kept to save an allocation per block.
  private var words = [UInt32](repeating: 0, count: 64)

  /// A hasher of the empty message so far.
  public init() {
    pending.reserveCapacity(64)
  }

  /// Appends `bytes` to the message.
  public mutating func update<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
    let contiguous: Void? = bytes.withContiguousStorageIfAvailable { update(buffer: $0) }
    if contiguous == nil { Array(bytes).withUnsafeBufferPointer { update(buffer: $0) } }
  }

  /// Appends `buffer`: whole blocks are hashed straight from it, only the tail is copied.
  private mutating func update(buffer: UnsafeBufferPointer<UInt8>) {
    length &+= UInt64(buffer.count)
    var rest = buffer[...]
    if !pending.isEmpty {
      let taken = rest.prefix(64 - pending.count)
      pending.append(contentsOf: taken)
      rest = rest.dropFirst(taken.count)
      guard pending.count == 64 else { return }
      compressPending()
    }
    while rest.count >= 64 {
      compress(UnsafeBufferPointer(rebasing: rest.prefix(64)))
      rest = rest.dropFirst(64)
    }
    pending.append(contentsOf: rest)
  }

  /// Appends one byte to the message.
  public mutating func update(byte: UInt8) {
    length &+= 1
    pending.append(byte)
    guard pending.count == 64 else { return }
    compressPending()
  }

  /// Appends `value` as 8 bytes, most significant first.
  public mutating func update(bigEndian value: UInt64) {
    withUnsafeBytes(of: value.bigEndian) { update(buffer: $0.assumingMemoryBound(to: UInt8.self)) }
  }

  /// The digest of everything fed: 32 bytes. The hasher is spent afterwards (feed a new one).
  public mutating func finalize() -> [UInt8] {
    let bitLength = length &* 8
    var tail = pending
    tail.append(0x80)
    while tail.count % 64 != 56 { tail.append(0) }
    for shift in stride(from: 56, through: 0, by: -8) {
      tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
    }
    tail.withUnsafeBufferPointer { tail in
      for chunk in stride(from: 0, to: tail.count, by: 64) {
        compress(UnsafeBufferPointer(rebasing: tail[chunk..<chunk + 64]))
      }
    }
    pending.removeAll()
    var digest: [UInt8] = []
    digest.reserveCapacity(32)
    for word in state {
      for shift in stride(from: 24, through: 0, by: -8) {
        digest.append(UInt8(truncatingIfNeeded: word >> UInt32(shift)))
      }
    }
    return digest
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

  /// Hashes the 64-byte block held in ``pending`` into the state and empties it.
  private mutating func compressPending() {
    // Hashed in place: a copy of `pending` would make the `removeAll` below allocate anew.
    pending.withUnsafeBufferPointer { Self.compress($0, into: &state, schedule: &words) }
    pending.removeAll(keepingCapacity: true)
  }

  /// Hashes one 64-byte block (`block` holds exactly 64 bytes) into the state.
  private mutating func compress(_ block: UnsafeBufferPointer<UInt8>) {
    Self.compress(block, into: &state, schedule: &words)
  }

  /// Hashes one 64-byte block into `state`, using `words` (64 of them) for the schedule.
  private static func compress(
    _ block: UnsafeBufferPointer<UInt8>, into state: inout [UInt32],
    schedule words: inout [UInt32]
  ) {
    sha256RoundConstants.withUnsafeBufferPointer { constants in
      words.withUnsafeMutableBufferPointer { words in
        for index in 0..<16 {
          let base = index &* 4
          words[index] =
            UInt32(block[base]) << 24 | UInt32(block[base &+ 1]) << 16
            | UInt32(block[base &+ 2]) << 8 | UInt32(block[base &+ 3])
        }
        for index in 16..<64 {
          let w15 = words[index &- 15]
          let w2 = words[index &- 2]
          let s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >> 3)
          let s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >> 10)
          words[index] = words[index &- 16] &+ s0 &+ words[index &- 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = (
          state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7]
        )
        for index in 0..<64 {
          let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
          let choice = (e & f) ^ (~e & g)
          let temp1 = h &+ s1 &+ choice &+ constants[index] &+ words[index]
          let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
          let majority = (a & b) ^ (a & c) ^ (b & c)
          let temp2 = s0 &+ majority
          (h, g, f, e, d, c, b, a) = (g, f, e, d &+ temp1, c, b, a, temp1 &+ temp2)
        }
        state[0] = state[0] &+ a
        state[1] = state[1] &+ b
        state[2] = state[2] &+ c
        state[3] = state[3] &+ d
        state[4] = state[4] &+ e
        state[5] = state[5] &+ f
        state[6] = state[6] &+ g
        state[7] = state[7] &+ h
      }
    }
  }
}

private func rotr(_ value: UInt32, _ count: UInt32) -> UInt32 {
  (value >> count) | (value << (32 - count))
}

private let sha256RoundConstants: [UInt32] = [
  0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4,
  0xab1c_5ed5, 0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe,
  0x9bdc_06a7, 0xc19b_f174, 0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f,
  0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da, 0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7,
  0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967, 0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc,
  0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85, 0xa2bf_e8a1, 0xa81a_664b,
  0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070, 0x19a4_c116,
  0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
  0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7,
  0xc671_78f2,
]
