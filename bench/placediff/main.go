// Command placediff lists, for a planned training step, where the
// caching-allocator replay puts each allocation of 1 MiB or more: the size
// of the free block best fit chose (or "new segment") and the size of its
// segment. align.py aligns that list with a snapshot's trace and prints the
// first requests where the replay and PyTorch chose differently, which is
// where the memory model's request stream departs from the real program's
// (docs/placediff.md; session 22 found the ViT, BERT, GPT-2 and Whisper
// differences this way).
//
//	go run ./bench/placediff -spec run.json > /tmp/model_gap.txt
//	python3 bench/placediff/align.py trace.pickle.gz /tmp/model_gap.txt
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/memmodel"
)

func main() {
	spec := flag.String("spec", "", "plan spec file (JSON)")
	steps := flag.Int("steps", 3, "training steps to generate (the harnesses run 3)")
	flag.Parse()
	if err := run(*spec, *steps, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "placediff:", err)
		os.Exit(1)
	}
}

func run(path string, steps int, w io.Writer) error {
	if path == "" {
		return fmt.Errorf("-spec is required")
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	s, err := memmodel.ParseSpec(f)
	if err != nil {
		return err
	}
	st, conf, dev, err := memmodel.PlanStream(s, steps)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	if err := list(st, conf, dev, bw); err != nil {
		return err
	}
	return bw.Flush()
}

// minSize is the smallest request listed: smaller ones come from the small
// pool, whose 2 MiB segments decide nothing about the large ones.
const minSize = 1 << 20

// list replays st and writes one line per allocation of minSize or more,
// "index A<MiB> <free block MiB, -1 for a new segment> <segment MiB>
// phase/op" (for a new segment, its size), and one per free of one,
// "index F<MiB>".
func list(st *memmodel.Stream, conf allocsim.Config, dev allocsim.Device, w io.Writer) error {
	a := allocsim.New(conf, dev)
	ptr := map[int32]int64{}
	size := map[int32]int64{}
	mib := func(n int64) float64 { return float64(n) / (1 << 20) }
	for i, r := range st.Requests {
		switch r.Kind {
		case allocsim.ReqAlloc:
			var before []allocsim.SegmentState
			if r.Size >= minSize {
				before = a.Segments()
			}
			p, err := a.Malloc(r.Size, r.Stream)
			if err != nil {
				return fmt.Errorf("request %d: %w", i, err)
			}
			ptr[r.ID], size[r.ID] = p, r.Size
			if r.Size < minSize {
				continue
			}
			gap, seg := chosenBlock(before, p)
			if gap < 0 {
				_, seg = chosenSegment(a.Segments(), p)
			}
			tg := st.Tags[r.ID]
			fmt.Fprintf(w, "%d A%.2f %.2f %.1f %v/%s\n", i, mib(r.Size), gap, seg, tg.Phase, tg.Op)
		case allocsim.ReqFree:
			p, ok := ptr[r.ID]
			if !ok {
				continue
			}
			a.Free(p)
			delete(ptr, r.ID)
			if size[r.ID] >= minSize {
				fmt.Fprintf(w, "%d F%.2f\n", i, mib(size[r.ID]))
			}
		}
	}
	return nil
}

// chosenBlock is the free block of the state before an allocation that
// the allocation landed in and its segment's size, in MiB; -1 and 0 when
// it landed in none (a new segment).
func chosenBlock(before []allocsim.SegmentState, p int64) (gap, seg float64) {
	for _, sg := range before {
		for _, b := range sg.Blocks {
			if !b.Allocated && p >= b.Addr && p < b.Addr+b.Size {
				return float64(b.Size) / (1 << 20), float64(sg.Size) / (1 << 20)
			}
		}
	}
	return -1, 0
}

// chosenSegment is the segment of state holding address p and its size in
// MiB (0 when none does).
func chosenSegment(state []allocsim.SegmentState, p int64) (int, float64) {
	for i, sg := range state {
		if p >= sg.Addr && p < sg.Addr+sg.Size {
			return i, float64(sg.Size) / (1 << 20)
		}
	}
	return -1, 0
}
