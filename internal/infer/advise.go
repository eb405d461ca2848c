package infer

import (
	"sort"
	"sync"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// Alternative is one change to a generate call and what it would need,
// from the same replay as the call itself.
type Alternative struct {
	// Change says what to change, as a user would write it.
	Change string `json:"change"`
	// Spec is the change as spec keys ("cache": "static", "alloc_conf": ...).
	Spec          map[string]string `json:"spec"`
	PeakAllocated int64             `json:"peak_allocated_bytes"`
	PeakReserved  int64             `json:"peak_reserved_bytes"`
	Process       int64             `json:"process_bytes"`
	ProcessBand   memmodel.Band     `json:"process_band"`
	// Saving is the call's process memory less the alternative's.
	Saving int64 `json:"saving_bytes"`
}

// overheadWorthAdvice is how much of a call's peak reserved memory the
// allocator must hold beyond its tensors before Advise replays the
// alternatives: a quarter, and at least 1 GiB.
const (
	overheadShare = 0.25
	overheadBytes = 1 << 30
)

// Advise replays what lowers a generate call's memory when the caching
// allocator holds much more than the call's tensors (a DynamicCache grows
// every layer's K and V by torch.cat each token, and the freed shorter
// blocks fit no later request): a StaticCache, and expandable segments
// (PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True), which map the
// growth into one segment. It keeps those that save at least a tenth of
// the call's process memory, best first, in r.Alternatives.
//
// A call that keeps every step's scores (output_scores, output_logits)
// is replayed without them too, and a sampled call without top_p's sort,
// whatever the allocator holds.
func Advise(spec memmodel.Spec, r *Result) error {
	type change struct {
		text string
		keys map[string]string
		set  func(*memmodel.Spec)
	}
	var changes []change
	if spec.OutputScores || spec.OutputLogits {
		changes = append(changes, change{"output_scores=False, output_logits=False",
			map[string]string{"output_scores": "false", "output_logits": "false"},
			func(s *memmodel.Spec) { s.OutputScores, s.OutputLogits = false, false }})
	}
	if spec.DoSample && spec.TopP > 0 && spec.TopP < 1 {
		// top_p sorts the batch × vocab scores (about 11 copies at its
		// peak below 128 rows, 8 above): where a decode step's sampler
		// sets the peak, the other warpers alone hold far less
		changes = append(changes, change{"top_p=1.0 (no nucleus sort; the other warpers kept)",
			map[string]string{"top_p": "1"}, func(s *memmodel.Spec) { s.TopP = 0 }})
	}
	over := r.PeakReserved - r.PeakAllocated
	if over >= overheadBytes && float64(over) >= overheadShare*float64(r.PeakReserved) {
		if r.Cache == "dynamic" {
			changes = append(changes, change{"cache_implementation=\"static\"",
				map[string]string{"cache": "static"}, func(s *memmodel.Spec) { s.Cache = "static" }})
		}
		if spec.AllocConf == "" {
			changes = append(changes, change{"PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True",
				map[string]string{"alloc_conf": "expandable_segments:True"}, func(s *memmodel.Spec) { s.AllocConf = "expandable_segments:True" }})
		}
	}
	// offer only what the planner models for this call (no StaticCache
	// under beam search or for an encoder-decoder)
	kept := changes[:0]
	for _, ch := range changes {
		s := spec
		ch.set(&s)
		if _, err := resolve(s); err == nil {
			kept = append(kept, ch)
		}
	}
	changes = kept
	// the replays are independent: run them side by side (a long call's
	// replay takes seconds)
	alts := make([]*Result, len(changes))
	errs := make([]error, len(changes))
	var wg sync.WaitGroup
	for i, ch := range changes {
		wg.Go(func() {
			s := spec
			ch.set(&s)
			alts[i], errs[i] = Estimate(s)
		})
	}
	wg.Wait()
	for i, ch := range changes {
		a, err := alts[i], errs[i]
		if err != nil {
			return err
		}
		if save := r.Process - a.Process; float64(save) >= 0.10*float64(r.Process) {
			r.Alternatives = append(r.Alternatives, Alternative{Change: ch.text, Spec: ch.keys,
				PeakAllocated: a.PeakAllocated, PeakReserved: a.PeakReserved, Process: a.Process,
				ProcessBand: a.ProcessBand, Saving: save})
		}
	}
	sort.SliceStable(r.Alternatives, func(i, j int) bool { return r.Alternatives[i].Saving > r.Alternatives[j].Saving })
	return nil
}
