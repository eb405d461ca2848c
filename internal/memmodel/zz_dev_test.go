package memmodel

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

func TestDevPlanSpecs(t *testing.T) {
	dir := "/work/shared/checks/plan-specs"
	var truth map[string]struct{ Alloc, Resv int64 }
	b, _ := os.ReadFile(filepath.Join(dir, "truth.json"))
	json.Unmarshal(b, &truth)
	var names []string
	for n := range truth {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		f, _ := os.Open(filepath.Join(dir, n+".json"))
		s, err := ParseSpec(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		r, err := Estimate(s, DefaultOptions())
		if err != nil {
			t.Fatal(n, err)
		}
		tr := truth[n]
		fmt.Printf("%-34s alloc %+6.1f%%  resv %+6.1f%%  (%6.0f MiB / %6.0f) phase %s\n", n,
			100*float64(r.PeakAllocated-tr.Alloc)/float64(tr.Alloc), 100*float64(r.PeakReserved-tr.Resv)/float64(tr.Resv),
			float64(r.PeakAllocated)/(1<<20), float64(tr.Alloc)/(1<<20), r.PeakPhase)
	}
}

func TestDevTiming(t *testing.T) {
	meas := map[string]float64{"resnet50-b64-fp32": 35.2, "resnet50-b64-fp16": 36.4, "resnet50-b64-bf16": 33.7, "resnet50-b64-fp32-ckpt": 81.3, "resnet50-b64-fp16-ckpt": 75.7, "resnet50-b16x4-fp32-accum": 96.4,
		"bert-base-s512-b32-fp32": 226.2, "bert-base-s512-b32-fp16": 51.3, "bert-base-s512-b32-bf16": 44.1, "bert-base-s512-b32-fp32-ckpt": 299.5, "bert-base-s512-b32-fp16-ckpt": 108.9, "bert-base-s512-b8x4-fp32-accum": 257.1,
		"gpt2-s1024-b8-fp32": 179.1, "gpt2-s1024-b8-bf16": 62.9, "gpt2-s1024-b8-fp32-ckpt": 224.3, "gpt2-s1024-b8-bf16-ckpt": 90.4, "vitl16-b32-fp32": 304.2, "vitl16-b32-fp16": 86.6, "vitl16-b32-bf16-ckpt": 153.1}
	pred := map[string]float64{}
	for n := range meas {
		f, _ := os.Open(filepath.Join("/work/shared/checks/plan-specs", n+".json"))
		s, _ := ParseSpec(f)
		f.Close()
		r, err := Estimate(s, Options{Steps: 1, SkipReserved: true})
		if err != nil {
			t.Fatal(err)
		}
		pred[n] = r.StepTime * 1000
	}
	pairs := [][2]string{{"resnet50-b64-fp16", "resnet50-b64-fp32"}, {"resnet50-b64-bf16", "resnet50-b64-fp32"}, {"resnet50-b64-fp32-ckpt", "resnet50-b64-fp32"}, {"resnet50-b64-fp16-ckpt", "resnet50-b64-fp16"}, {"resnet50-b16x4-fp32-accum", "resnet50-b64-fp32"},
		{"bert-base-s512-b32-fp16", "bert-base-s512-b32-fp32"}, {"bert-base-s512-b32-bf16", "bert-base-s512-b32-fp32"}, {"bert-base-s512-b32-fp32-ckpt", "bert-base-s512-b32-fp32"}, {"bert-base-s512-b32-fp16-ckpt", "bert-base-s512-b32-fp16"}, {"bert-base-s512-b8x4-fp32-accum", "bert-base-s512-b32-fp32"},
		{"gpt2-s1024-b8-bf16", "gpt2-s1024-b8-fp32"}, {"gpt2-s1024-b8-fp32-ckpt", "gpt2-s1024-b8-fp32"}, {"gpt2-s1024-b8-bf16-ckpt", "gpt2-s1024-b8-bf16"}, {"vitl16-b32-fp16", "vitl16-b32-fp32"}, {"vitl16-b32-bf16-ckpt", "vitl16-b32-fp16"}}
	for _, p := range pairs {
		mr := meas[p[0]] / meas[p[1]]
		pr := pred[p[0]] / pred[p[1]]
		fmt.Printf("%-32s/%-26s meas %.2f pred %.2f err %+5.1f%%   (abs %6.1f vs %6.1f ms)\n", p[0], p[1], mr, pr, 100*(pr/mr-1), pred[p[0]], meas[p[0]])
	}
}
