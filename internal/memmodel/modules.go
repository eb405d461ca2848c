package memmodel

import "strings"

// ModuleRow is what one module of the model holds on this rank: its
// parameters, their gradients and optimizer state, and the activations
// its ops save for backward (after checkpointing), each tensor counted
// once, for the module whose op saves it first.
type ModuleRow struct {
	Module         string `json:"module"`
	Params         int64  `json:"params"`
	ParamBytes     int64  `json:"param_bytes"`
	GradientBytes  int64  `json:"gradient_bytes"`
	OptimizerBytes int64  `json:"optimizer_state_bytes"`
	ActivationByte int64  `json:"saved_activation_bytes"`
}

// moduleOf names the module of an op or parameter recorded in block
// (-1 outside the layers) under name ("" when the family names none).
func moduleOf(name string, block int) string {
	switch {
	case name != "":
		return name
	case block >= 0:
		return "layers." + itoa(block)
	}
	return "model"
}

// byModule attributes g's parameters, gradients, optimizer state and
// saved activations to modules, in the order modules first appear.
func (c *config) byModule(g *Graph, cfg stepConfig) []ModuleRow {
	idx := map[string]int{}
	var rows []ModuleRow
	row := func(m string) *ModuleRow {
		i, ok := idx[m]
		if !ok {
			i = len(rows)
			idx[m] = i
			rows = append(rows, ModuleRow{Module: m})
		}
		return &rows[i]
	}
	paramMod := make([]string, len(g.params))
	for i, p := range g.params {
		m := p.module
		if m == "" {
			m = moduleOf("", g.ops[c.firstUse(g, p.t)].block)
		}
		paramMod[i] = m
	}
	seen := map[Tensor]bool{}
	for i := range g.ops {
		o := &g.ops[i]
		m := row(moduleOf(o.module, o.block))
		for _, t := range o.in {
			if p := g.tensors[t].param; p >= 0 && !seen[t] {
				seen[t] = true
				c.addParam(row(paramMod[p]), g.params[p], cfg)
			}
		}
		if o.block >= 0 && cfg.ckpt[o.block] {
			continue // dropped in forward, recomputed in backward
		}
		for _, t := range o.save {
			b := g.tensors[t].base
			if seen[b] || g.tensors[b].param >= 0 || g.tensors[b].input {
				continue
			}
			seen[b] = true
			m.ActivationByte += g.tensors[b].bytes()
		}
	}
	// parameters no op reads (none today) still count
	for i, p := range g.params {
		if !seen[p.t] {
			c.addParam(row(paramMod[i]), p, cfg)
		}
	}
	if len(cfg.ckpt) > 0 {
		// checkpointing keeps each block's input: the residual stream
		for i := range g.ops {
			o := &g.ops[i]
			if o.block < 0 || !cfg.ckpt[o.block] || (i > 0 && g.ops[i-1].block == o.block) {
				continue
			}
			for _, t := range o.in {
				if b := g.tensors[t].base; !seen[b] && g.tensors[b].param < 0 && !g.tensors[b].input {
					seen[b] = true
					row(moduleOf(o.module, o.block)).ActivationByte += g.tensors[b].bytes()
				}
			}
		}
	}
	return rows
}

// firstUse is the first op reading tensor t (0 when none does).
func (c *config) firstUse(g *Graph, t Tensor) int {
	for i := range g.ops {
		for _, x := range g.ops[i].in {
			if x == t {
				return i
			}
		}
	}
	return 0
}

// addParam counts parameter p, its gradient and its optimizer state.
func (c *config) addParam(r *ModuleRow, p paramInfo, cfg stepConfig) {
	n := float64(p.numel) * p.shard
	r.Params += p.numel
	el := float64(p.dt.Size())
	if cfg.paramBytes > 0 {
		el = float64(cfg.paramBytes)
	}
	if p.quant > 0 {
		el = p.quant
	}
	r.ParamBytes += int64(n * el)
	if !p.trainable {
		return
	}
	gb := float64(p.dt.Size())
	if cfg.gradBytes > 0 {
		gb = float64(cfg.gradBytes)
	}
	r.GradientBytes += int64(n * gb * cfg.gradShard)
	if c.opt.Stateful() {
		for _, t := range c.opt.State(p.numel, paramStateDT(cfg.stateDT, p)) {
			if t.Fixed > 0 {
				r.OptimizerBytes += t.Fixed
				continue
			}
			r.OptimizerBytes += int64(n * cfg.stateShard * t.PerElem)
		}
	}
}

// CollapseLayers merges rows of identical layers (layers.0.mlp …
// layers.23.mlp with equal figures) into one row "layers.{0..23}.mlp",
// whose figures are per layer.
func CollapseLayers(rows []ModuleRow) []ModuleRow {
	var out []ModuleRow
	first := map[string]int{}
	lo := map[string]int{}
	hi := map[string]int{}
	for _, r := range rows {
		key, n, ok := layerKey(r.Module)
		if !ok {
			out = append(out, r)
			continue
		}
		if i, seen := first[key]; seen && sameFigures(out[i], r) && n == hi[key]+1 {
			hi[key] = n
			out[i].Module = strings.Replace(key, "{}", "{"+itoa(lo[key])+".."+itoa(n)+"}", 1)
			continue
		}
		first[key], lo[key], hi[key] = len(out), n, n
		out = append(out, r)
	}
	return out
}

func sameFigures(a, b ModuleRow) bool {
	return a.Params == b.Params && a.ParamBytes == b.ParamBytes && a.GradientBytes == b.GradientBytes &&
		a.OptimizerBytes == b.OptimizerBytes && a.ActivationByte == b.ActivationByte
}

// layerKey splits "x.layers.12.mlp" into "x.layers.{}.mlp" and 12.
func layerKey(m string) (string, int, bool) {
	parts := strings.Split(m, ".")
	for i, p := range parts {
		if i == 0 || parts[i-1] != "layers" {
			continue
		}
		n := 0
		for _, ch := range p {
			if ch < '0' || ch > '9' {
				return "", 0, false
			}
			n = n*10 + int(ch-'0')
		}
		if p == "" {
			return "", 0, false
		}
		parts[i] = "{}"
		return strings.Join(parts, "."), n, true
	}
	return "", 0, false
}
