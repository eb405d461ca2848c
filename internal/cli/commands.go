package cli

// commands is vramkit's command table. Each command lives in its own file.
func commands() []*Command {
	return []*Command{
		statsCommand(),
		simulateCommand(),
		tuneCommand(),
		analyzeCommand(),
		planCommand(),
		reportCommand(),
		exportPprofCommand(),
		exportPerfettoCommand(),
		runCommand(summarizeSnapshot),
		watchCommand(),
		exportCommand(),
		newLintCommand(),
	}
}
