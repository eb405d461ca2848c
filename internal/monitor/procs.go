package monitor

import (
	"bytes"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// ProcInfo describes a host process that NVML reported.
type ProcInfo struct {
	PID     uint32 `json:"pid"`
	PPID    uint32 `json:"ppid"`
	User    string `json:"user"`
	Name    string `json:"name"`    // the kernel's short name (comm), safe as a label
	Command string `json:"command"` // the command line, truncated
}

// Procs looks up processes by PID. A PID that NVML reports may be missing:
// NVML speaks in host PIDs, so inside a container without hostPID the
// process is invisible (see the design notes, §1.9).
type Procs interface {
	Lookup(pid uint32) (ProcInfo, bool)
}

// ProcFS reads /proc (or another root, for tests). It caches what does not
// change for a process (user, command line) keyed by PID and start time, so
// a sample costs one small read per GPU process.
type ProcFS struct {
	root    string
	recheck time.Duration

	mu    sync.Mutex
	cache map[uint32]procEntry
	users map[uint32]string
}

type procEntry struct {
	start   uint64
	info    ProcInfo
	checked time.Time
}

// recheck is how long a cached entry is trusted before /proc/PID/stat is
// read again to catch PID reuse and reparenting. At 10 Hz this turns ten
// reads per process per second into one.
const recheck = time.Second

// maxCommand bounds the command line we keep; long argument lists are noise.
const maxCommand = 200

// NewProcFS returns a process table reading root (normally "/proc").
func NewProcFS(root string) *ProcFS {
	return &ProcFS{root: root, recheck: recheck, cache: map[uint32]procEntry{}, users: map[uint32]string{}}
}

// Lookup implements Procs.
func (p *ProcFS) Lookup(pid uint32) (ProcInfo, bool) {
	now := time.Now()
	p.mu.Lock()
	if e, ok := p.cache[pid]; ok && now.Sub(e.checked) < p.recheck {
		p.mu.Unlock()
		return e.info, true
	}
	p.mu.Unlock()
	dir := filepath.Join(p.root, strconv.FormatUint(uint64(pid), 10))
	stat, err := os.ReadFile(filepath.Join(dir, "stat"))
	if err != nil {
		return ProcInfo{PID: pid}, false
	}
	name, ppid, start, err := parseStat(stat)
	if err != nil {
		return ProcInfo{PID: pid}, false
	}
	p.mu.Lock()
	if e, ok := p.cache[pid]; ok && e.start == start {
		e.info.PPID = ppid // reparenting happens when a parent dies
		e.checked = now
		p.cache[pid] = e
		p.mu.Unlock()
		return e.info, true
	}
	p.mu.Unlock()

	info := ProcInfo{PID: pid, PPID: ppid, Name: name, Command: name}
	if raw, err := os.ReadFile(filepath.Join(dir, "cmdline")); err == nil && len(raw) > 0 {
		info.Command = cmdline(raw)
	}
	if fi, err := os.Stat(dir); err == nil {
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			info.User = p.userName(st.Uid)
		}
	}
	p.mu.Lock()
	if len(p.cache) > 4096 { // PIDs churn; a full reset is cheaper than LRU bookkeeping
		p.cache = map[uint32]procEntry{}
	}
	p.cache[pid] = procEntry{start: start, info: info, checked: now}
	p.mu.Unlock()
	return info, true
}

func (p *ProcFS) userName(uid uint32) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n, ok := p.users[uid]; ok {
		return n
	}
	n := strconv.FormatUint(uint64(uid), 10)
	if u, err := user.LookupId(n); err == nil {
		n = u.Username
	}
	p.users[uid] = n
	return n
}

// parseStat reads comm, ppid and starttime from /proc/PID/stat. comm is in
// parentheses and may itself contain spaces and parentheses, so we split at
// the last ')'.
func parseStat(b []byte) (name string, ppid uint32, start uint64, err error) {
	open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || end < open {
		return "", 0, 0, fmt.Errorf("monitor: malformed stat")
	}
	name = string(b[open+1 : end])
	f := strings.Fields(string(b[end+1:]))
	// Fields after comm: state(0) ppid(1) ... starttime(19).
	if len(f) < 20 {
		return "", 0, 0, fmt.Errorf("monitor: short stat")
	}
	pp, err := strconv.ParseUint(f[1], 10, 32)
	if err != nil {
		return "", 0, 0, fmt.Errorf("monitor: stat ppid: %w", err)
	}
	st, err := strconv.ParseUint(f[19], 10, 64)
	if err != nil {
		return "", 0, 0, fmt.Errorf("monitor: stat starttime: %w", err)
	}
	return name, uint32(pp), st, nil
}

func cmdline(raw []byte) string {
	s := strings.TrimRight(strings.ReplaceAll(string(raw), "\x00", " "), " ")
	if len(s) > maxCommand {
		s = s[:maxCommand-1] + "…"
	}
	return s
}

// StaticProcs is a fixed process table, for tests and demos.
type StaticProcs map[uint32]ProcInfo

// Lookup implements Procs.
func (s StaticProcs) Lookup(pid uint32) (ProcInfo, bool) {
	p, ok := s[pid]
	if !ok {
		return ProcInfo{PID: pid}, false
	}
	p.PID = pid
	return p, true
}

// InTree reports whether pid is root or one of its descendants, walking
// parent links. It stops after 64 steps so a table with a cycle (possible
// only in a broken fake) cannot hang.
func InTree(procs Procs, root, pid uint32) bool {
	for i := 0; i < 64 && pid != 0; i++ {
		if pid == root {
			return true
		}
		info, ok := procs.Lookup(pid)
		if !ok || info.PPID == pid {
			return false
		}
		pid = info.PPID
	}
	return false
}
