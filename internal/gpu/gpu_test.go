package gpu

import "testing"

func TestCatalogCoversTheIssueList(t *testing.T) {
	for _, n := range []string{"t4", "v100-16", "v100-32", "rtx3090", "rtx4090", "a10", "l4", "l40s",
		"a40", "a100-40", "a100-80", "h100", "h200", "b200", "mi300x", "rtx-pro-6000", "NVIDIA RTX PRO 6000 Blackwell Server Edition", "NVIDIA H100", "3090"} {
		g, err := Lookup(n)
		if err != nil {
			t.Errorf("%s: %v", n, err)
			continue
		}
		if g.MemoryBytes < 15e9 || g.ContextBytes <= 0 || g.BandwidthGBps <= 0 || g.FP16TFLOPs <= 0 || g.CublasWorkspaceBytes <= 0 {
			t.Errorf("%s: incomplete entry %+v", n, g)
		}
		if cc := g.ComputeCapability; (cc == 0) != (g.Name == "mi300x") || cc != 0 && g.BF16 != (cc >= 80) {
			t.Errorf("%s: compute capability %d (bf16 %v)", n, cc, g.BF16)
		}
		if g.BF16 != (g.BF16TFLOPs > 0) {
			t.Errorf("%s: bf16 flag and bf16 throughput disagree", n)
		}
	}
	if _, err := Lookup("gtx480"); err == nil {
		t.Error("unknown GPU accepted")
	}
}

// TestLookupWithMemory: NAME:MEMORY is NAME's entry with the memory given
// (a variant the table does not list), the table's kept beside it; a bad
// or implausible memory is an error naming it.
func TestLookupWithMemory(t *testing.T) {
	h, err := Lookup("h100")
	if err != nil {
		t.Fatal(err)
	}
	g, err := Lookup("H100:94GiB")
	if err != nil {
		t.Fatal(err)
	}
	if g.MemoryBytes != 94<<30 || g.TableMemoryBytes != h.MemoryBytes || g.Name != "h100" || g.BF16TFLOPs != h.BF16TFLOPs {
		t.Errorf("h100:94GiB = %+v", g)
	}
	if h.TableMemoryBytes != 0 {
		t.Errorf("plain h100 has a given memory: %+v", h)
	}
	for _, bad := range []string{"h100:", "h100:lots", "h100:512MiB", "h100:9TiB", "gh200:96GiB"} {
		if _, err := Lookup(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
