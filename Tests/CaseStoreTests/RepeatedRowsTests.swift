import Testing

@testable import CaseStore

/// The rows met more than once in a read of the history (``RepeatedRows``): none missed, few
/// listed that were met once, and the list given up past its limit.
@Suite struct RepeatedRowsTests {
  /// 60,000 rows met once in key order (a favourite-fruits table of 20,000 suspects), then 500
  /// of them again: all 500 are listed, with few false positives.
  @Test func everyRowMetTwiceIsListed() {
    var repeated = RepeatedRows(changes: 60_500)
    for animal in Int64(1)...20_000 {
      for fruit in Int64(1)...3 { repeated.insert(.init(table: 3, key1: animal, key2: fruit)) }
    }
    #expect(repeated.rows.count < 60)
    let falsePositives = Set(repeated.rows)
    let again = (Int64(1)...500).map { RepeatedRows.Row(table: 3, key1: $0 * 37, key2: $0 % 3 + 1) }
    for row in again { repeated.insert(row) }
    let listed = Set(repeated.rows)
    #expect(listed.isSuperset(of: again))
    #expect(listed.subtracting(again).isSubset(of: falsePositives))
    #expect(!repeated.overflowed)
  }

  /// A row with a second key and the same row of a one-key table are different rows; sorting
  /// puts the missing second key first.
  @Test func aMissingSecondKeySortsFirst() {
    let rows: [RepeatedRows.Row] = [
      .init(table: 2, key1: 5, key2: .min), .init(table: 2, key1: 5, key2: nil),
      .init(table: 1, key1: 9, key2: nil),
    ]
    #expect(
      rows.sorted() == [
        .init(table: 1, key1: 9, key2: nil), .init(table: 2, key1: 5, key2: nil),
        .init(table: 2, key1: 5, key2: .min),
      ])
  }

  /// Past its limit the list is given up: the caller then finds the latest changes another way.
  @Test func theListIsGivenUpPastItsLimit() {
    var repeated = RepeatedRows(changes: 100, limit: 10)
    for _ in 1...2 {
      for key in Int64(1)...11 { repeated.insert(.init(table: 6, key1: key, key2: nil)) }
    }
    #expect(repeated.overflowed)
    #expect(repeated.rows.isEmpty)
  }
}
