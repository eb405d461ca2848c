package analyze

import (
	"sort"
	"strings"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// Category names, as reports print them.
const (
	catParameters  = "parameters"
	catGradients   = "gradients"
	catOptimizer   = "optimizer_state"
	catActivations = "activations"
	catTemporaries = "temporaries"
	catOther       = "other"
	catKVCache     = "kv_cache"
	catUnsharded   = "unsharded_parameters"
	catComm        = "communication_buffers"
	catWorkspace   = "library_workspace"
)

// category decides what life k is. Library roles come first (a cuBLAS
// workspace, a KV cache, FSDP's unsharded parameters, collective
// buffers); the rest follows from the phase that allocated it and the
// phase that freed it:
//   - before the first iteration and never freed: parameters (and buffers);
//   - made by an optimizer step and outliving its iteration: optimizer state;
//   - made by backward and outliving backward: gradients;
//   - made by forward and freed by backward: activations saved for it
//     (also, in an iteration with no backward, forward tensors still alive
//     when the forward pass ends: the graph an eval without no_grad keeps
//     until its output is dropped);
//   - freed in the phase that made them: temporaries;
//   - the rest (inputs, outputs kept across iterations): other.
func (d *dev) category(k int) string {
	if d.isWorkspace(k) {
		return catWorkspace
	}
	base := d.lifetimeCategory(k)
	if !d.frames {
		return base
	}
	switch d.facts[d.t.lives[k].stack].lib.role {
	case roleKVCache:
		// In training, a cache tensor that backward frees is the keys or
		// values attention saved for it: the cache only refers to it, and
		// use_cache=False would not free it. It is an activation.
		if base != catActivations || !d.iterHasBackward(d.iterOf(int(d.t.lives[k].alloc))) {
			return catKVCache
		}
	case roleUnshard:
		if base != catParameters {
			return catUnsharded
		}
	case roleDDPBucket:
		if base != catParameters {
			return catComm
		}
	case roleCollective, roleReduceScatter:
		if base == catTemporaries || base == catOther {
			return catComm
		}
	}
	return base
}

// lifetimeCategory is the category life k's phases and lifetime give,
// before what its library frames add.
func (d *dev) lifetimeCategory(k int) string {
	l := &d.t.lives[k]
	a := int(l.alloc)
	if a < d.starts[0] {
		if l.free == never {
			return catParameters
		}
		return catOther
	}
	it := d.iterOf(a) // 1-based
	end := d.starts[it]
	freedLater := l.free == never || int(l.free) >= end
	var fp phase = phSetup
	if l.free != never {
		fp = d.at[l.free]
	}
	switch d.ph[k] {
	case phOptim:
		if freedLater {
			return catOptimizer
		}
		return catTemporaries
	case phBackward:
		if !d.frames && l.free == never && it == 1 {
			return catOptimizer
		}
		if freedLater || fp == phOptim || fp == phSetup || fp == phForward {
			return catGradients
		}
		return catTemporaries
	case phForward:
		// The forward pass an OOM cut short: what it made and still held
		// is its saved tensors and outputs (the snapshot may be dumped
		// before anything is freed).
		if d.oomAt >= 0 && it == d.iterOf(d.oomAt) && !d.iterHasBackward(it) && int(l.free) > d.oomAt {
			return catActivations
		}
		switch {
		case fp == phBackward && !freedLater:
			return catActivations
		case freedLater:
			return catOther
		case !d.iterHasBackward(it) && int(l.free) > d.lastForward(it):
			return catActivations
		}
		return catTemporaries
	case phSample:
		// the logits' float32 copy, the probabilities, the token picked:
		// what the decode step frees before the next is a temporary
		if !freedLater {
			return catTemporaries
		}
	}
	return catOther
}

func (d *dev) iterHasBackward(it int) bool { return d.iterBwd[it-1] }

// lastForward is the request index of iteration it's last forward-pass
// allocation (its start when it has none). Without frames the phases come
// from the curve, so this is the last allocation before the curve falls.
func (d *dev) lastForward(it int) int { return d.iterLastFwd[it-1] }

// indexIterations precomputes, per iteration, whether it has a backward
// phase and where its forward pass allocated last.
func (d *dev) indexIterations() {
	n := len(d.starts) - 1
	d.iterBwd, d.iterLastFwd = make([]bool, n), make([]int, n)
	for it := 0; it < n; it++ {
		lo, hi := d.starts[it], d.starts[it+1]
		d.iterLastFwd[it] = lo
		for i := lo; i < hi; i++ {
			if d.at[i] == phBackward {
				d.iterBwd[it] = true
				break
			}
		}
		a, b := d.t.lifeRange(lo, hi)
		for k := b - 1; k >= a; k-- {
			if d.ph[k] == phForward {
				d.iterLastFwd[it] = int(d.t.lives[k].alloc)
				break
			}
		}
	}
}

func addCat(c *Categories, cat string, n int64) {
	switch cat {
	case catParameters:
		c.Parameters += n
	case catGradients:
		c.Gradients += n
	case catOptimizer:
		c.OptimizerState += n
	case catActivations:
		c.Activations += n
	case catTemporaries:
		c.Temporaries += n
	case catKVCache:
		c.KVCache += n
	case catUnsharded:
		c.UnshardedParameters += n
	case catComm:
		c.Communication += n
	case catWorkspace:
		c.LibraryWorkspace += n
	default:
		c.Other += n
	}
}

// breakdown splits the live allocations at request i into categories and
// allocation sites, biggest first.
func (d *dev) breakdown(i int) (Categories, []Site) {
	var c Categories
	type agg struct {
		site Site
		key  string
	}
	sites := map[string]*agg{}
	for _, k := range d.t.liveAt(i) {
		l := &d.t.lives[k]
		cat := d.category(k)
		addCat(&c, cat, l.size)
		c.BlockRounding += l.block - l.size
		key, frames, label := d.siteOf(k, cat)
		a := sites[key]
		if a == nil {
			a = &agg{site: Site{Category: cat, Frames: frames, Label: label}, key: key}
			sites[key] = a
		}
		a.site.Bytes += l.size
		a.site.Count++
	}
	aggs := make([]*agg, 0, len(sites))
	for _, a := range sites {
		aggs = append(aggs, a)
	}
	// Ties broken by the site key so reports are reproducible.
	sort.Slice(aggs, func(a, b int) bool {
		x, y := &aggs[a].site, &aggs[b].site
		if x.Bytes != y.Bytes {
			return x.Bytes > y.Bytes
		}
		if x.Count != y.Count {
			return x.Count > y.Count
		}
		return aggs[a].key < aggs[b].key
	})
	list := make([]Site, 0, len(aggs))
	for _, a := range aggs {
		list = append(list, a.site)
	}
	if len(list) > d.o.Top {
		list = list[:d.o.Top]
	}
	return c, list
}

// siteOf collapses life k's stack to the library call that allocated
// (the innermost frame) followed by the user's own frames; library frames
// in between are folded away. Without frames the site is the category and
// the phase, since nothing else tells allocations apart.
func (d *dev) siteOf(k int, cat string) (key string, frames []snapshot.Frame, label string) {
	l := &d.t.lives[k]
	fr := d.s.Frames(l.stack)
	if len(fr) == 0 {
		label = "allocated in " + d.ph[k].String() + " (the trace has no stack for it)"
		if d.frames && d.ph[k] == phBackward {
			label = "allocated by the autograd engine (backward, which runs no Python code)"
		}
		return "\x00" + cat + "|" + label, nil, label
	}
	frames = collapse(fr)
	var b strings.Builder
	for _, f := range frames {
		b.WriteString(f.Filename)
		b.WriteByte(':')
		b.WriteString(f.Name)
		b.WriteByte(':')
		b.WriteString(itoa(f.Line))
		b.WriteByte('|')
	}
	b.WriteString(cat)
	return b.String(), frames, ""
}

// collapse keeps the innermost frame and the user's frames after it.
func collapse(fr []snapshot.Frame) []snapshot.Frame {
	out := []snapshot.Frame{fr[0]}
	for _, f := range fr[1:] {
		if !isLibrary(f.Filename) {
			out = append(out, f)
		}
	}
	return out
}

// isLibrary tells installed packages and the interpreter from user code.
func isLibrary(file string) bool {
	return strings.Contains(file, "site-packages/") || strings.Contains(file, "dist-packages/") ||
		strings.Contains(file, "/lib/python") || strings.HasPrefix(file, "<") || file == ""
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var buf [20]byte
	i := len(buf)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		buf[i] = '-'
	}
	return string(buf[i:])
}
