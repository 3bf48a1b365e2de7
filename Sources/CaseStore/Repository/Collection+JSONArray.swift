extension Collection<Int64> {
  /// The ids as a JSON array (`[4,10]`), bound as one parameter and unpacked by SQLite's
  /// `json_each`, so a page of ids costs one statement.
  ///
  /// SQLite: <https://sqlite.org/json1.html#jeach>
  var jsonArray: String {
    "[" + map(String.init).joined(separator: ",") + "]"
  }
}
