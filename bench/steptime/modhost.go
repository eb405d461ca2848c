package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/vramkit/vramkit/bench/measured"
	"github.com/vramkit/vramkit/internal/memmodel"
)

// modhostRow is the part of one gt_modhost.py row (testdata/dev69,
// dev70) that -modhost reads: a module's host time forward and backward
// (µs), what its forward issued and how many autograd nodes it left, in
// fp32 and under bf16 autocast.
type modhostRow struct {
	Name    string  `json:"name"`
	Job     string  `json:"job"`
	IssueUS float64 `json:"issue_us_per_op"`
	F32Fwd  float64 `json:"fp32_fwd_us"`
	F32Bwd  float64 `json:"fp32_bwd_us"`
	F32Ops  float64 `json:"fp32_fwd_aten_ops"`
	F32Node float64 `json:"fp32_bwd_nodes"`
	AMPFwd  float64 `json:"bf16-amp_fwd_us"`
	AMPBwd  float64 `json:"bf16-amp_bwd_us"`
	AMPOps  float64 `json:"bf16-amp_fwd_aten_ops"`
	AMPNode float64 `json:"bf16-amp_bwd_nodes"`
}

// model is the whole model row r timed, named as in modhostModels (a
// row named JOB-model-NAME), or false for a module row.
func (r modhostRow) model() (string, bool) {
	m, ok := strings.CutPrefix(r.Name, r.Job+"-model-")
	return m, ok && r.Job != ""
}

// modhostModels maps gt_modhost.py's whole-model rows to the catalog
// models they built (8 tokens, batch 1).
var modhostModels = map[string]string{"bert-base": "bert-base", "gpt2": "gpt2", "llama-small": "llama-small"}

// printModhost sets the walk's host time and its op and node inventory
// for each whole model of the gt_modhost.py files beside what the rows
// measured: forward and backward host ms (the walk with host h, and the
// measured median over the files' processes), forward ops against aten
// ops, backward nodes against autograd nodes.
func printModhost(files []string, h memmodel.HostCosts) error {
	meas := map[string][]modhostRow{}
	for _, f := range files {
		rows, err := readModhost(f)
		if err != nil {
			return err
		}
		for _, r := range rows {
			if m, ok := r.model(); ok {
				meas[m] = append(meas[m], r)
			}
		}
	}
	names := make([]string, 0, len(meas))
	for m := range meas {
		names = append(names, m)
	}
	sort.Strings(names)
	fmt.Printf("%-12s %-9s %22s %22s %18s %18s\n", "model", "precision", "fwd ms walk/measured", "bwd ms walk/measured", "fwd ops walk/aten", "bwd nodes walk/meas")
	for _, m := range names {
		cat, ok := modhostModels[m]
		if !ok {
			continue // a model this list does not map to the catalog
		}
		for _, prec := range []string{"fp32", "bf16-amp"} {
			phases, err := modhostWalk(cat, prec, h)
			if err != nil {
				return err
			}
			fwdOps, err := modhostCount(cat, prec, func(c *memmodel.HostCosts) { c.Op, c.Small, c.Cast = 1, 1, 1 }, 0)
			if err != nil {
				return err
			}
			nodes, err := modhostCount(cat, prec, backwardUnits, 1)
			if err != nil {
				return err
			}
			var fwd, bwd, ops, nd []float64
			for _, r := range meas[m] {
				if prec == "fp32" {
					fwd, bwd, ops, nd = append(fwd, r.F32Fwd), append(bwd, r.F32Bwd), append(ops, r.F32Ops), append(nd, r.F32Node)
				} else {
					fwd, bwd, ops, nd = append(fwd, r.AMPFwd), append(bwd, r.AMPBwd), append(ops, r.AMPOps), append(nd, r.AMPNode)
				}
			}
			fmt.Printf("%-12s %-9s %9.1f / %-9.1f %9.1f / %-9.1f %7.0f / %-7.0f %7.0f / %-7.0f\n", m, prec,
				phases[0]*1e3, measured.Median(fwd)/1e3, phases[1]*1e3, measured.Median(bwd)/1e3, fwdOps, measured.Median(ops), nodes, measured.Median(nd))
		}
	}
	return nil
}

// modhostWalk is the walk's forward/backward/optimizer host seconds for
// catalog model m at 8 tokens, batch 1.
func modhostWalk(m, prec string, h memmodel.HostCosts) ([3]float64, error) {
	s := memmodel.DefaultSpec()
	s.Model, s.Batch, s.Seq, s.Precision = &m, 1, 8, prec
	opts := memmodel.DefaultOptions()
	opts.SkipReserved, opts.Host = true, h
	r, err := memmodel.Estimate(s, opts)
	if err != nil {
		return [3]float64{}, fmt.Errorf("%s %s: %w", m, prec, err)
	}
	if r.StepDetail == nil {
		return [3]float64{}, fmt.Errorf("%s %s: no step detail", m, prec)
	}
	return r.StepDetail.PhaseS, nil
}

// backwardUnits prices every host item of the backward at one second:
// kernel nodes (Bwd, Cast), kernel-less ones (Node), the engine's
// gradient sums (Issue) and Python-level extras (Small).
func backwardUnits(c *memmodel.HostCosts) { c.Bwd, c.Node, c.Issue, c.Cast, c.Small = 1, 1, 1, 1, 1 }

// modhostCount counts the walk's ops of the classes set marks: each costs
// the host one second and everything else nothing (Issue a negligible
// 1e-12 s unless set: zero would default it to Small), so the host time
// of phase is their number.
func modhostCount(m, prec string, set func(*memmodel.HostCosts), phase int) (float64, error) {
	c := memmodel.HostCosts{Issue: 1e-12}
	set(&c)
	p, err := modhostWalk(m, prec, c)
	return p[phase], err
}

// readModhost reads the rows of a gt_modhost.py results.jsonl that
// completed.
func readModhost(path string) ([]modhostRow, error) {
	lines, err := measured.ReadJSONL[struct {
		modhostRow
		Status string `json:"status"`
	}](path)
	if err != nil {
		return nil, err
	}
	var out []modhostRow
	for _, l := range lines {
		if l.Status == "ok" {
			out = append(out, l.modhostRow)
		}
	}
	return out, nil
}
