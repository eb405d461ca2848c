package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Config is the [tool.vramkit] table of a pyproject.toml:
//
//	[tool.vramkit]
//	disable = ["VK007", "dataloader-num-workers"]   # codes or names
//	fail-on = "error"                               # info | warning | error | none
//	exclude = ["legacy/", "*_old.py"]              # gitignore-style patterns
//
// Only these keys are read; others are ignored so the table can grow.
type Config struct {
	Disable []string `json:"disable,omitempty"`
	FailOn  string   `json:"fail_on,omitempty"`
	Exclude []string `json:"exclude,omitempty"`
	// Path is the pyproject.toml the config came from ("" when none).
	Path string `json:"path,omitempty"`
}

// Disabled reports whether the config turns the rule off.
func (c *Config) Disabled(r *Rule) bool {
	for _, d := range c.Disable {
		if strings.EqualFold(d, r.Code) || d == r.Name {
			return true
		}
	}
	return false
}

// FindConfig looks for the nearest pyproject.toml with a [tool.vramkit]
// table, from dir upwards, stopping at the repository root (a directory
// holding .git). It returns a zero Config when there is none.
func FindConfig(dir string) (Config, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return Config{}, err
	}
	for {
		p := filepath.Join(dir, "pyproject.toml")
		if data, err := os.ReadFile(p); err == nil {
			c, found, err := ParseConfig(data)
			if err != nil {
				return Config{}, fmt.Errorf("%s: %w", p, err)
			}
			if found {
				c.Path = p
				return c, nil
			}
		}
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return Config{}, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return Config{}, nil
		}
		dir = parent
	}
}

// ParseConfig reads the [tool.vramkit] table out of pyproject.toml text.
// It understands the TOML that such a table needs: key = string, bool,
// number or array of strings (arrays may span lines), comments, and
// quoted keys. found is false when the table is absent.
func ParseConfig(data []byte) (c Config, found bool, err error) {
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(stripComment(lines[i]))
		if strings.HasPrefix(line, "[") {
			found = found || line == "[tool.vramkit]"
			if found && line != "[tool.vramkit]" {
				return c, true, nil
			}
			continue
		}
		if !found || line == "" {
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok {
			return c, true, fmt.Errorf("line %d: want key = value in [tool.vramkit]", i+1)
		}
		key = strings.Trim(strings.TrimSpace(key), `"'`)
		val = strings.TrimSpace(val)
		// Arrays may continue over several lines.
		for strings.HasPrefix(val, "[") && !strings.HasSuffix(val, "]") && i+1 < len(lines) {
			i++
			val += " " + strings.TrimSpace(stripComment(lines[i]))
		}
		switch key {
		case "disable", "exclude":
			list, err := tomlStrings(val)
			if err != nil {
				return c, true, fmt.Errorf("line %d: %s: %w", i+1, key, err)
			}
			if key == "disable" {
				c.Disable = list
			} else {
				c.Exclude = list
			}
		case "fail-on", "fail_on":
			s, err := strconv.Unquote(toDoubleQuoted(val))
			if err != nil {
				return c, true, fmt.Errorf("line %d: fail-on: want a string", i+1)
			}
			c.FailOn = s
		}
	}
	return c, found, nil
}

// stripComment drops a # comment that is not inside a string.
func stripComment(s string) string {
	var q rune
	for i, r := range s {
		switch {
		case q != 0 && r == q:
			q = 0
		case q == 0 && (r == '"' || r == '\''):
			q = r
		case q == 0 && r == '#':
			return s[:i]
		}
	}
	return s
}

var tomlString = regexp.MustCompile(`^\s*("(?:[^"\\]|\\.)*"|'[^']*')\s*(,|$)`)

func tomlStrings(val string) ([]string, error) {
	if !strings.HasPrefix(val, "[") || !strings.HasSuffix(val, "]") {
		return nil, fmt.Errorf("want an array of strings")
	}
	rest := strings.TrimSpace(val[1 : len(val)-1])
	var out []string
	for rest != "" {
		m := tomlString.FindStringSubmatch(rest)
		if m == nil {
			return nil, fmt.Errorf("want an array of strings, got %s", val)
		}
		s, err := strconv.Unquote(toDoubleQuoted(m[1]))
		if err != nil {
			return nil, err
		}
		out = append(out, s)
		rest = strings.TrimSpace(rest[len(m[0]):])
	}
	return out, nil
}

// toDoubleQuoted turns a TOML literal string 'x' into "x" for Unquote.
func toDoubleQuoted(s string) string {
	if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
		return strconv.Quote(s[1 : len(s)-1])
	}
	return s
}

// directive matches "# vramkit: ignore", "# vramkit: ignore[VK001, VK003]"
// and the file-wide "# vramkit: ignore-file[...]".
var directive = regexp.MustCompile(`vramkit:\s*ignore(-file)?(?:\[([^\]]*)\])?`)

// suppressions holds a file's ignore comments.
type suppressions struct {
	lines map[int][]string // line → codes ("*" = all)
	file  []string
}

// readSuppressions collects ignore comments. A comment applies to its own
// line; a comment alone on its line also applies to the next line.
func readSuppressions(f *File) suppressions {
	s := suppressions{lines: map[int][]string{}}
	for _, c := range f.Nodes("comment") {
		m := directive.FindStringSubmatch(f.Text(c))
		if m == nil {
			continue
		}
		codes := []string{"*"}
		if m[2] != "" {
			codes = nil
			for _, x := range strings.Split(m[2], ",") {
				if x = strings.TrimSpace(x); x != "" {
					codes = append(codes, x)
				}
			}
		}
		if m[1] != "" {
			s.file = append(s.file, codes...)
			continue
		}
		line := f.Line(c.Start)
		s.lines[line] = append(s.lines[line], codes...)
		if strings.TrimSpace(f.LineText(line)) == strings.TrimSpace(f.Text(c)) {
			s.lines[line+1] = append(s.lines[line+1], codes...)
		}
	}
	return s
}

func (s suppressions) covers(r *Rule, line int) bool {
	match := func(codes []string) bool {
		for _, c := range codes {
			if c == "*" || strings.EqualFold(c, r.Code) || c == r.Name {
				return true
			}
		}
		return false
	}
	return match(s.file) || match(s.lines[line])
}
