/// A small deterministic pseudo-random generator (SplitMix64, Steele, Lea and Flood 2014), so a
/// seed names the same sequence on every machine and every Swift version.
///
/// The tests draw seeded cases and operation sequences from it, and the benchmark builds its
/// datasets with it; both depend on its output staying bit-for-bit the same, so never change the
/// constants. Package access: a tool for this package's tests and benchmark, not part of the
/// case store's API.
///
/// - Note: The standard library's `random(in:using:)` is not promised to draw the same numbers
///   from the same generator between releases; callers that need stable draws do their own
///   arithmetic on ``next()``.
package struct SplitMix64: RandomNumberGenerator {
  // MARK: - Properties

  private var state: UInt64

  // MARK: - Init

  /// Creates a generator whose first step starts from `seed`; equal seeds give equal sequences.
  ///
  /// - Parameter seed: Any value, 0 included.
  package init(seed: UInt64) {
    state = seed
  }

  // MARK: - Public API

  /// The next 64 random bits.
  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
