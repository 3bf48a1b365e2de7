import Foundation
import PackagePlugin

/// Compiles `migrations/*.sql` at the package root into a Swift source file of the target, so
/// that the built binary carries its schema (docs/design.md "Migrations in the binary": copying
/// the binary alone must still be able to create and migrate a database).
@main
struct EmbedMigrations: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    let directory = context.package.directoryURL.appending(path: "migrations")
    let files = try FileManager.default
      .contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
      .filter { $0.pathExtension == "sql" }
      .sorted { $0.lastPathComponent < $1.lastPathComponent }
    let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
    return [
      .buildCommand(
        displayName: "Embedding \(files.count) migrations into \(target.name)",
        executable: try context.tool(named: "MigrationEmbedder").url,
        arguments: [output.path] + files.map(\.path),
        inputFiles: files,
        outputFiles: [output]
      )
    ]
  }
}
