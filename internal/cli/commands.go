package cli

// commands is vramkit's command table. Each command lives in its own file.
func commands() []*Command {
	return []*Command{
		runCommand(nil), // the lead wires the snapshot analysis in here
		watchCommand(),
		exportCommand(),
	}
}
