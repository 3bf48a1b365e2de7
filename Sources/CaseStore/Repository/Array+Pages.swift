extension Array {
  /// Hands the elements to `body` in order, `size` at a time (the last page may be shorter;
  /// none when the array is empty), as listings of rows already in memory are paged.
  ///
  /// - Parameters:
  ///   - size: Elements per page (values below 1 count as 1).
  ///   - body: Receives each page; what it throws stops the walk.
  func forEachPage(size: Int, _ body: ([Element]) throws -> Void) rethrows {
    let size = Swift.max(size, 1)
    for start in stride(from: 0, to: count, by: size) {
      try body(Array(self[start..<Swift.min(start + size, count)]))
    }
  }
}
