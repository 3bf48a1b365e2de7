// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "FruitInspectors",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "inspector", targets: ["inspector"]),
    .library(name: "CaseStore", targets: ["CaseStore"]),
    .library(name: "SQLiteKit", targets: ["SQLiteKit"]),
    .library(name: "CommandLineKit", targets: ["CommandLineKit"]),
    .library(name: "HTTPKit", targets: ["HTTPKit"]),
  ],
  targets: [
    // The C library, seen through a module map and a small shim (Sources/CSQLite/shim.h).
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
    ),
    // Nettle's SHA-256 (Sources/CNettle/shim.h), for the history's seals and the checksums.
    .systemLibrary(
      name: "CNettle",
      pkgConfig: "nettle",
      providers: [.apt(["nettle-dev"]), .brew(["nettle"])]
    ),
    // The SQLite wrapper: the only Swift code that touches C.
    .target(name: "SQLiteKit", dependencies: ["CSQLite", "CNettle"]),
    // Turns migrations/*.sql into Swift source at build time, so the binary carries the schema.
    // It also applies them in memory (hence SQLiteKit) to embed the schema they make.
    .executableTarget(name: "MigrationEmbedder", dependencies: ["SQLiteKit"]),
    .plugin(
      name: "EmbedMigrations",
      capability: .buildTool(),
      dependencies: ["MigrationEmbedder"]
    ),
    // The domain: suspects, fruits, interviews, the seed case and the ranking.
    .target(
      name: "CaseStore",
      dependencies: ["SQLiteKit"],
      plugins: ["EmbedMigrations"]
    ),
    // The command-line library, after swift-argument-parser: typed declarations, the parser,
    // help, usage errors, shell completions and the manual page. It knows nothing of the case.
    .target(name: "CommandLineKit"),
    // libmicrohttpd, seen through a module map and a small shim (Sources/CMicroHTTPD/shim.h).
    .systemLibrary(
      name: "CMicroHTTPD",
      pkgConfig: "libmicrohttpd",
      providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]
    ),
    // The HTTP server of `inspector serve`, over libmicrohttpd: requests in, responses out. It
    // knows nothing of the case.
    .target(name: "HTTPKit", dependencies: ["CMicroHTTPD"]),
    // The command line of inspector: its commands, output formats, exit codes. The desk's page
    // (Desk/Assets: HTML, CSS, JavaScript) is compiled into it as bytes.
    .target(
      name: "InspectorCLI", dependencies: ["CaseStore", "CommandLineKit", "HTTPKit"],
      resources: [.embedInCode("Desk/Assets")]
    ),
    .executableTarget(name: "inspector", dependencies: ["InspectorCLI"]),
    // Writes the history triggers' migration from CaseStore's description of the recorded
    // tables: scripts/history-triggers.sh (docs/history.md "Recorded tables").
    .executableTarget(
      name: "history-triggers", dependencies: ["CaseStore"], path: "Sources/HistoryTriggersTool"),
    // The benchmark (README "Performance"): `swift run -c release inspector-bench`.
    .executableTarget(
      name: "inspector-bench", dependencies: ["CaseStore", "SQLiteKit", "CSQLite"],
      path: "Sources/InspectorBench"),
    .testTarget(name: "SQLiteKitTests", dependencies: ["SQLiteKit"]),
    .testTarget(name: "CaseStoreTests", dependencies: ["CaseStore", "SQLiteKit"]),
    .testTarget(name: "CommandLineKitTests", dependencies: ["CommandLineKit"]),
    .testTarget(name: "HTTPKitTests", dependencies: ["HTTPKit"]),
    .testTarget(
      name: "InspectorCLITests",
      dependencies: [
        "InspectorCLI", "CommandLineKit", "CaseStore", "SQLiteKit", "HTTPKit", "inspector",
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
