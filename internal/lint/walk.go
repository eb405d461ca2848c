package lint

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Collect expands the paths into the files to check. A file named
// explicitly is always checked. A directory is walked recursively for
// .py, .ipynb, .sh and .bash files, skipping what .gitignore files (from the
// repository root down), .git/info/exclude and the exclude list of
// [tool.vramkit] ignore, and directories that are never project code:
// .git, __pycache__, .ipynb_checkpoints, node_modules, site-packages and
// virtual environments (a directory holding pyvenv.cfg). Symbolic links to
// directories are not followed.
func Collect(paths []string) ([]string, error) {
	var files []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			files = append(files, p)
		}
	}
	for _, root := range paths {
		st, err := os.Stat(root)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			add(root)
			continue
		}
		ig, err := rootIgnores(root)
		if err != nil {
			return nil, err
		}
		abs, err := filepath.Abs(root)
		if err != nil {
			return nil, err
		}
		if err := walkDir(root, abs, ig, add); err != nil {
			return nil, err
		}
	}
	return files, nil
}

var skipDirs = map[string]bool{
	".git": true, ".hg": true, ".svn": true, "__pycache__": true,
	".ipynb_checkpoints": true, "node_modules": true, "site-packages": true,
	".mypy_cache": true, ".pytest_cache": true, ".ruff_cache": true, ".tox": true,
}

func lintable(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".py", ".ipynb", ".sh", ".bash":
		return true
	}
	return false
}

// walkDir walks dir (as the user wrote it; abs is its absolute form, which
// ignore rules are matched against).
func walkDir(dir, abs string, ig []ignoreRule, add func(string)) error {
	ig = append(ig[:len(ig):len(ig)], readIgnoreFile(filepath.Join(abs, ".gitignore"), abs)...)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		pabs := filepath.Join(abs, e.Name())
		isDir := e.IsDir()
		if e.Type()&os.ModeSymlink != 0 {
			st, err := os.Stat(p)
			if err != nil || st.IsDir() {
				continue // dangling, or a linked directory: not followed
			}
		}
		if ignored(ig, pabs, isDir) {
			continue
		}
		if isDir {
			if skipDirs[e.Name()] {
				continue
			}
			if _, err := os.Stat(filepath.Join(p, "pyvenv.cfg")); err == nil {
				continue
			}
			if err := walkDir(p, pabs, ig, add); err != nil {
				return err
			}
			continue
		}
		if lintable(e.Name()) {
			add(p)
		}
	}
	return nil
}

// ignoreRule is one gitignore pattern, relative to the directory base.
type ignoreRule struct {
	base    string
	re      *regexp.Regexp
	negate  bool
	dirOnly bool
}

// ignored applies the rules in order; the last match wins, as in git.
func ignored(rules []ignoreRule, path string, isDir bool) bool {
	out := false
	for _, r := range rules {
		if r.dirOnly && !isDir {
			continue
		}
		rel, err := filepath.Rel(r.base, path)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		if r.re.MatchString(filepath.ToSlash(rel)) {
			out = !r.negate
		}
	}
	return out
}

// rootIgnores gathers the ignore rules that apply above and at a walk's
// root: .git/info/exclude, the .gitignore files from the repository root
// down to (not including) root, and [tool.vramkit] exclude.
func rootIgnores(root string) ([]ignoreRule, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	var chain []string // abs .. repo root
	repo := ""
	for d := abs; ; d = filepath.Dir(d) {
		chain = append(chain, d)
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			repo = d
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	var rules []ignoreRule
	if repo != "" {
		rules = append(rules, readIgnoreFile(filepath.Join(repo, ".git", "info", "exclude"), repo)...)
		for i := len(chain) - 1; i >= 1; i-- {
			rules = append(rules, readIgnoreFile(filepath.Join(chain[i], ".gitignore"), chain[i])...)
		}
	}
	cfg, err := FindConfig(abs)
	if err != nil {
		return nil, err
	}
	if cfg.Path != "" {
		base := filepath.Dir(cfg.Path)
		for _, pat := range cfg.Exclude {
			if r, ok := compileIgnore(pat, base); ok {
				rules = append(rules, r)
			}
		}
	}
	return rules, nil
}

func readIgnoreFile(path, base string) []ignoreRule {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var rules []ignoreRule
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if r, ok := compileIgnore(sc.Text(), base); ok {
			rules = append(rules, r)
		}
	}
	return rules
}

// compileIgnore turns one gitignore line into a rule (see gitignore(5)).
func compileIgnore(line, base string) (ignoreRule, bool) {
	line = strings.TrimRight(line, "\r")
	if !strings.HasSuffix(line, `\ `) {
		line = strings.TrimRight(line, " \t")
	}
	if line == "" || strings.HasPrefix(line, "#") {
		return ignoreRule{}, false
	}
	r := ignoreRule{base: base}
	if strings.HasPrefix(line, "!") {
		r.negate = true
		line = line[1:]
	} else if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		r.dirOnly = true
		line = strings.TrimRight(line, "/")
	}
	if line == "" {
		return ignoreRule{}, false
	}
	anchored := strings.Contains(line, "/")
	line = strings.TrimPrefix(line, "/")
	expr := globRegexp(line)
	if !anchored {
		expr = "(?:.*/)?" + expr
	}
	re, err := regexp.Compile("^" + expr + "$")
	if err != nil {
		return ignoreRule{}, false
	}
	r.re = re
	return r, true
}

// globRegexp translates gitignore glob syntax: * and ? stop at "/", **
// crosses directories, [...] is a class.
func globRegexp(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '*' && strings.HasPrefix(p[i:], "**/"):
			b.WriteString("(?:.*/)?")
			i += 2
		case c == '*' && strings.HasPrefix(p[i:], "**"):
			b.WriteString(".*")
			i++
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '\\' && i+1 < len(p):
			i++
			b.WriteString(regexp.QuoteMeta(string(p[i])))
		case c == '[':
			j := strings.IndexByte(p[i+1:], ']')
			if j < 0 {
				b.WriteString(`\[`)
				continue
			}
			class := p[i+1 : i+1+j]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += j + 1
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return b.String()
}
