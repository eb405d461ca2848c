package memmodel

import (
	"fmt"
	"os"
	"sort"
	"testing"

	"github.com/vramkit/vramkit/internal/allocsim"
)

func TestZZDebugPeak(t *testing.T) {
	f, err := os.Open(os.Getenv("ZZSPEC"))
	if err != nil {
		t.Skip()
	}
	s, _ := ParseSpec(f)
	c, err := resolve(s)
	if err != nil {
		t.Fatal(err)
	}
	g := c.buildGraph()
	cfg := c.stepConfig(g, 2)
	st := generate(g, cfg)
	live := map[int32]int64{}
	var cur, peak int64
	var at int
	for i, r := range st.Requests {
		if r.Kind == allocsim.ReqAlloc {
			live[r.ID] = (r.Size + 511) / 512 * 512
			cur += live[r.ID]
		} else {
			cur -= live[r.ID]
			delete(live, r.ID)
		}
		if cur > peak {
			peak, at = cur, i
		}
	}
	live = map[int32]int64{}
	for _, r := range st.Requests[:at+1] {
		if r.Kind == allocsim.ReqAlloc {
			live[r.ID] = r.Size
		} else {
			delete(live, r.ID)
		}
	}
	sum := map[string]int64{}
	for id, n := range live {
		tg := st.Tags[id]
		sum[fmt.Sprintf("%v/%s/%s", tg.Phase, tg.Cat, tg.Op)] += n
	}
	keys := make([]string, 0, len(sum))
	for k := range sum {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return sum[keys[i]] > sum[keys[j]] })
	for _, k := range keys[:min(25, len(keys))] {
		t.Logf("%-50s %8.1f MB", k, float64(sum[k])/1e6)
	}
	t.Logf("peak %.1f MB at event %d", float64(peak)/1e6, at)
}
