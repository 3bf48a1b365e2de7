internal import CSQLite

extension Connection {
  /// The aggregate function that ``collectIntegers(_:_:base:into:)`` registers:
  /// `sqlitekit_bitset(x)`, which sets the bit of each integer `x` and returns how many rows it
  /// saw. Allowed only in SQL run directly (not in triggers, views or the schema), and outside
  /// ``collectIntegers(_:_:base:into:)`` it sets nothing.
  public static let bitsetFunction = "sqlitekit_bitset"

  /// Runs `sql`, a query whose one result is ``bitsetFunction`` over some integer expression
  /// (`SELECT sqlitekit_bitset(animal_id) FROM ... WHERE ...`), and sets in `words` bit
  /// `(x - base) % 64` of word `(x - base) / 64` for every integer `x` it aggregates.
  ///
  /// The integers never leave SQLite one row at a time, so a million ids cost one step of the
  /// statement instead of a million: the aggregate sets each bit as SQLite finds the row.
  /// Values that are not integers, and integers outside `base ..< base + 64 * words.count`, are
  /// skipped. The statement is prepared once and cached.
  ///
  /// - Parameters:
  ///   - sql: One `SELECT` whose first result column is `sqlitekit_bitset(...)`.
  ///   - parameters: Bound to `sql`'s parameters in order.
  ///   - base: The integer that bit 0 of word 0 stands for.
  ///   - words: The bitset; bits already set stay set.
  /// - Returns: The number of rows the aggregate saw (skipped ones included).
  /// - Throws: `SQLiteError` when the function cannot be registered, or `sql` cannot be
  ///   prepared or run.
  /// - SQLite: <https://sqlite.org/c3ref/create_function.html>,
  ///   <https://sqlite.org/appfunc.html>
  @discardableResult
  public func collectIntegers(
    _ sql: String, _ parameters: [any SQLiteBindable], base: Int64, into words: inout [UInt64]
  ) throws -> Int {
    let target = try registeredBitsetTarget()
    let statement = try cachedStatement(sql)
    try statement.bind(parameters)
    return try words.withUnsafeMutableBufferPointer { buffer in
      target.aim(at: buffer, base: base)
      defer { target.aim(at: nil, base: 0) }
      guard try statement.step() else { return 0 }
      return Int(statement.int64(at: 0))
    }
  }

  /// The target of `sqlitekit_bitset`, registering the function on first use.
  private func registeredBitsetTarget() throws -> BitsetTarget {
    if let bitsetTarget { return bitsetTarget }
    let target = BitsetTarget()
    // The callbacks reach the target's state through a plain pointer: no reference counting
    // per row.
    try check(
      sqlite3_create_function_v2(
        handle, Self.bitsetFunction, 1, SQLITE_UTF8 | SQLITE_DIRECTONLY,
        UnsafeMutableRawPointer(target.state), nil,
        { context, _, arguments in
          guard let context else { return }
          let state = BitsetTarget.state(of: context)
          state.pointee.seen += 1
          guard let value = arguments?[0], sqlite3_value_type(value) == SQLITE_INTEGER,
            let words = state.pointee.words
          else { return }
          let offset = sqlite3_value_int64(value) &- state.pointee.base
          guard offset >= 0, offset < Int64(state.pointee.wordCount) * 64 else { return }
          words[Int(offset >> 6)] |= 1 << UInt64(offset & 63)
        },
        { context in
          guard let context else { return }
          let state = BitsetTarget.state(of: context)
          sqlite3_result_int64(context, Int64(state.pointee.seen))
          state.pointee.seen = 0
        }, nil))
    bitsetTarget = target
    return target
  }
}

/// The bitset that `sqlitekit_bitset` writes to while ``Connection/collectIntegers(_:_:base:into:)``
/// runs its statement, and the rows it has seen; owns the memory the function's callbacks read.
final class BitsetTarget {
  /// What the callbacks read and write, at a fixed address.
  struct State {
    var words: UnsafeMutablePointer<UInt64>?
    var wordCount = 0
    var base: Int64 = 0
    /// Rows aggregated since the last result.
    var seen = 0
  }

  let state: UnsafeMutablePointer<State>

  init() {
    state = .allocate(capacity: 1)
    state.initialize(to: State())
  }

  deinit {
    state.deinitialize(count: 1)
    state.deallocate()
  }

  /// The state registered as `context`'s function's user data.
  static func state(of context: OpaquePointer) -> UnsafeMutablePointer<State> {
    sqlite3_user_data(context).assumingMemoryBound(to: State.self)
  }

  /// Points the function at `words` (`nil`: nowhere), whose bit 0 stands for `base`.
  func aim(at words: UnsafeMutableBufferPointer<UInt64>?, base: Int64) {
    state.pointee = State(words: words?.baseAddress, wordCount: words?.count ?? 0, base: base)
  }
}
