package memmodel

import (
	"strings"
	"testing"
)

// graphOfJSON is the graph plan builds for a JSON spec.
func graphOfJSON(t *testing.T, spec string) *Graph {
	t.Helper()
	s, err := ParseSpec(strings.NewReader(spec))
	if err != nil {
		t.Fatal(err)
	}
	c, err := resolve(s)
	if err != nil {
		t.Fatal(err)
	}
	return c.buildGraph()
}

// TestCompiledDecoderAttentionUnmasked: under torch.compile transformers
// passes SDPA a materialised causal mask with is_causal=False, so a
// compiled decoder's attention is priced as the full (non-causal) call,
// twice the causal FLOPs its eager step's attention has (testdata/dev32:
// compiled Qwen2.5-0.5B's attention kernels 11.0 ms a step, 5.0 priced
// causal). An encoder's attention is non-causal either way.
func TestCompiledDecoderAttentionUnmasked(t *testing.T) {
	attn := func(spec string) *op {
		g := graphOfJSON(t, spec)
		for i := range g.ops {
			if g.ops[i].attn != nil {
				return &g.ops[i]
			}
		}
		t.Fatalf("%s: no attention op", spec)
		return nil
	}
	for _, c := range []struct {
		model string
		ratio float64
	}{{"llama3.2-1b", 2}, {"bert-base", 1}} {
		base := `{"model":"` + c.model + `","batch":4,"seq":512,"precision":"bf16-amp"`
		e, k := attn(base+`}`), attn(base+`,"compile":true}`)
		if k.attn.causal || k.flops != c.ratio*e.flops || k.bwdFlops != c.ratio*e.bwdFlops {
			t.Errorf("%s: compiled attention causal=%v, %.3g FLOPs forward and %.3g backward; eager %.3g and %.3g (want %gx, non-causal)",
				c.model, k.attn.causal, k.flops, k.bwdFlops, e.flops, e.bwdFlops, c.ratio)
		}
	}
}

// TestRepeatCopyTraffic: the copies that expand grouped keys and values to
// the query heads under torch.compile (Llama 3.2 1B: 8 key/value heads, 32
// query heads) move what they read and all they write: 1 + 4 = 5 times
// the key tensor's bytes, not the 2 of a same-size copy.
func TestRepeatCopyTraffic(t *testing.T) {
	g := graphOfJSON(t, `{"model":"llama3.2-1b","batch":4,"seq":512,"precision":"bf16-amp","compile":true}`)
	n := 0
	for i := range g.ops {
		o := &g.ops[i]
		if o.kind != "copy" || len(o.in) != 1 || len(o.out) != 1 {
			continue
		}
		in, out := g.tensors[o.in[0]].bytes(), g.tensors[o.out[0]].bytes()
		if out != 4*in {
			continue
		}
		n++
		if o.bytes != float64(in+out) {
			t.Errorf("repeat copy of %d bytes to %d: traffic %.0f, want %d", in, out, o.bytes, in+out)
		}
	}
	if n == 0 {
		t.Fatal("no 4x repeat copy in the compiled Llama 3.2 1B graph")
	}
}
