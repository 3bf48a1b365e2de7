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
