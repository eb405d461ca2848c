package report

import (
	"encoding/json"
	"io"
)

// Formats every command that prints a result offers; some add html or
// sarif, which their own renderers handle.
const (
	FormatText = "text"
	FormatJSON = "json"
)

// Write renders v in format: FormatJSON writes v itself as indented JSON,
// the machine-readable form that keeps codes and raw bytes; any other
// format calls text, the human form with units and words.
func Write(w io.Writer, format string, v any, text func(io.Writer) error) error {
	if format == FormatJSON {
		return JSON(w, v)
	}
	return text(w)
}

// JSON writes v as indented JSON followed by a newline.
func JSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
