import InspectorCLI

// The executable only forwards to InspectorCLI (CONVENTIONS.md: keep the CLI thin).
Inspector.main()
