/// A small deterministic pseudo-random generator (SplitMix64, Steele, Lea and Flood 2014), so a
/// seed names the same operation sequence on every machine and every Swift version.
///
/// The helpers below draw numbers with their own arithmetic instead of the standard library's
/// `random(in:using:)`, whose algorithm is not promised to stay the same between releases.
struct SplitMix64: RandomNumberGenerator {
  // MARK: - Properties

  private var state: UInt64

  // MARK: - Init

  /// Creates a generator; equal seeds give equal sequences.
  init(seed: UInt64) {
    state = seed
  }

  // MARK: - Public API

  /// The next 64 random bits.
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound` (`bound` > 0); the tiny modulo bias does not matter here.
  mutating func below(_ bound: Int) -> Int {
    precondition(bound > 0, "below(_:) needs a positive bound")
    return Int(next() % UInt64(bound))
  }

  /// A number in `range`.
  mutating func int(in range: ClosedRange<Int>) -> Int {
    range.lowerBound + below(range.count)
  }

  /// `true` with probability `percent` / 100.
  mutating func chance(_ percent: Int) -> Bool {
    below(100) < percent
  }

  /// One element of a non-empty collection.
  mutating func pick<C: Collection>(_ elements: C) -> C.Element {
    let offset = below(elements.count)
    return elements[elements.index(elements.startIndex, offsetBy: offset)]
  }

  /// One case of a weighted table: `(weight, value)` pairs, weights positive.
  mutating func weighted<T>(_ table: [(Int, T)]) -> T {
    var roll = below(table.reduce(0) { $0 + $1.0 })
    for (weight, value) in table {
      if roll < weight { return value }
      roll -= weight
    }
    return table[table.count - 1].1
  }
}
