import CaseStore

/// Draws for the model-based tests, made with their own arithmetic instead of the standard
/// library's `random(in:using:)`, whose algorithm is not promised to stay the same between
/// releases, so a seed names the same operation sequence on every Swift version.
extension SplitMix64 {
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
