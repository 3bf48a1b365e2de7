import InspectorCLI

// The executable only forwards to InspectorCLI .
Inspector.main()
