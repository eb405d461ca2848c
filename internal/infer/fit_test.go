package infer

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestFitBoundary checks --fit's answer is a boundary: the value fits the
// budget, the next one does not (or is past the model's positions).
func TestFitBoundary(t *testing.T) {
	s := genSpec("gpt2", 1, 512, 32, "fp16", "")
	s.GPU = "t4"
	r, err := Fit(context.Background(), s, FitOptions{Maximize: "batch", Margin: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	// the margin is kept free beyond the process band's top, as the
	// training --fit keeps it: the answer's top is within the budget, the
	// next batch's is not, and the verdict says so
	if !r.Verdict.Fits || r.Best.ProcessBand.High > r.Budget || r.Best.Batch != r.Value || r.Verdict.Limit != r.Budget {
		t.Errorf("answer %d does not fit: band top %d, budget %d, verdict %+v", r.Value, r.Best.ProcessBand.High, r.Budget, r.Verdict)
	}
	if r.Next == nil || r.Next.Batch != r.Value+1 || r.Next.ProcessBand.High <= r.Budget {
		t.Errorf("batch %d+1 should not fit: %+v", r.Value, r.Next)
	}
	// one verdict per configuration in the output: the predictions the
	// answer embeds carry the decision against the budget, not their own
	// against the whole GPU (the next batch's said it fits the 14.7 GiB
	// T4, while the answer had it over the 13.3 GiB budget)
	if r.Best.Verdict != r.Verdict || !r.Best.Fits || r.Best.Headroom != r.Verdict.Headroom {
		t.Errorf("best %+v (fits %v, headroom %d), answer %+v", r.Best.Verdict, r.Best.Fits, r.Best.Headroom, r.Verdict)
	}
	if r.Next != nil && (r.Next.Fits || r.Next.Verdict.Fits || r.Next.Headroom >= 0 || r.Next.Verdict.Limit != r.Budget) {
		t.Errorf("next %+v (fits %v, headroom %d), budget %d", r.Next.Verdict, r.Next.Fits, r.Next.Headroom, r.Budget)
	}
	// GPT-2's learned positions end at 1024: the longest prompt with 32
	// new tokens is 992, whatever the memory
	s.Batch = 8
	r, err = Fit(context.Background(), s, FitOptions{Maximize: "seq", Margin: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Value != 1024-32 {
		t.Errorf("longest GPT-2 prompt with 32 new tokens: %d, want 992", r.Value)
	}
	// nothing fits: a 13B model in fp16 (26 GB of weights) on a 16 GB card
	s = genSpec("llama2-13b", 1, 512, 32, "fp16", "")
	s.GPU = "v100-16"
	_, err = Fit(context.Background(), s, DefaultFitOptions())
	if !errors.Is(err, ErrNothingFits) {
		t.Errorf("13B fp16 on 16 GB: want ErrNothingFits, got %v", err)
	}
	// and says what would: int8 weights are 13 GB, which a 16 GB card
	// holds only with little beside them; int4 (7 GB) fits
	if err == nil || !strings.Contains(err.Error(), "with int4 weights one sequence fits") {
		t.Errorf("13B fp16 on 16 GB: the error names no quantisation that fits: %v", err)
	}
	// a 70B model fits a 24 GB card in no precision
	s = genSpec("llama3-70b", 1, 512, 32, "bf16", "")
	s.GPU = "rtx4090"
	if _, err := Fit(context.Background(), s, DefaultFitOptions()); err == nil || !strings.HasSuffix(err.Error(), "(not even with int4 weights)") {
		t.Errorf("70B on 24 GB: %v", err)
	}
}
