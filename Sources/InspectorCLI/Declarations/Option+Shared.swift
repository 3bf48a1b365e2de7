import CommandLineKit

extension Option<String?> {
  /// `--lat`, taken by `incident add` and `incident edit`. Kept as text: the case store checks
  /// it (exit 65, not 64).
  static var latitude: Self {
    Option(
      "lat", valueName: "degrees",
      help: "Latitude, -90 to 90, in plain decimal notation such as 37.334371 (dot as"
        + " decimal, no exponent; with --lon).")
  }

  /// `--lon`, the partner of ``latitude``.
  static var longitude: Self {
    Option(
      "lon", valueName: "degrees",
      help: "Longitude, -180 to 180, in plain decimal notation such as -122.009558 (dot as"
        + " decimal, no exponent; with --lat).")
  }
}

extension Option<String?> {
  /// `--as-of`, taken by `show` and `list`: the case as it stood then, rebuilt from the
  /// history. Kept as text: the case store checks it (exit 65, not 64).
  static var asOf: Self {
    Option(
      "as-of", valueName: "time",
      help: "The case as it stood then, from the history: YYYY-MM-DDTHH:MM[:SS] local (or"
        + " ending in Z for UTC), or a change set id.")
  }
}
