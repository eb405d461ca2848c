package measured

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// GTRow is the subset of a row written by bench/gpu (capture.py's
// results.jsonl and gt_work.py's train, gen, sharded and script rows; see
// testdata/captures/README.md) that the planners' specs are built from.
type GTRow struct {
	Name        string          `json:"name"`
	Kind        string          `json:"kind"`
	Model       string          `json:"model"`
	HFConfig    json.RawMessage `json:"hf_config"`
	Prec        *string         `json:"prec"`
	B           int             `json:"b"`
	Seq         int             `json:"seq"`
	Accum       int             `json:"accum"`
	Ckpt        any             `json:"ckpt"`
	LoRA        int             `json:"lora"`
	LoRATargets []string        `json:"lora_targets"`
	Quant       string          `json:"quant"` // "nf4": bitsandbytes 4-bit base weights (QLoRA)
	// FrozenParams counts a diffusion row's frozen VAE and text encoder,
	// which gt_work.py keeps beside the model (its params excludes them).
	FrozenParams int64  `json:"frozen_params"`
	Opt          string `json:"opt"`
	Attn         string `json:"attn"`
	Strategy     string `json:"strategy"`
	Reshard      *bool  `json:"reshard"`
	// Init is a sharded row's "meta" when gt_work.py built the model on
	// the meta device (spec parallel.init); "" for model.to(device) first.
	Init string `json:"init"`
	// World is a sharded row's world size (gt_work.py under torchrun: one
	// row per rank); 0 or 1 is one GPU.
	World int `json:"world"`
	// MicroBatches and Schedule are a pipeline-parallel row's micro-batches
	// per step and schedule (gt_work.py's pipeline: "1f1b" or "gpipe").
	MicroBatches int     `json:"mb"`
	Schedule     string  `json:"schedule"`
	Compile      bool    `json:"compile"`
	ChannelsLast bool    `json:"channels_last"`
	UseCache     *bool   `json:"use_cache"`
	Script       string  `json:"script"`
	Fraction     float64 `json:"fraction"`
	// AllocConf is PYTORCH_CUDA_ALLOC_CONF as a generate row ran under
	// (gt_work.py records it from session 28 on; "" for the defaults).
	AllocConf    string    `json:"alloc_conf"`
	Status       string    `json:"status"`
	MaxAllocated int64     `json:"max_allocated"`
	MaxReserved  int64     `json:"max_reserved"`
	NVMLUsed     int64     `json:"nvml_used"`
	IterS        []float64 `json:"iter_s"`
	StepMedianS  float64   `json:"step_median_s"`
	// Alternated names every configuration of a gt_alternate.py process
	// (this row's among them), timed step by step in turn after Warm
	// steps each; empty for a row timed on its own.
	Alternated []string `json:"alternated"`
	Warm       int      `json:"warm"`
	// PhaseS is each timed step's host wall time in forward, backward
	// and optimizer (gt_work.py from session 35 on).
	PhaseS [][3]float64 `json:"phase_s"`
	Timing bool         `json:"timing"`
	// HostProbe is a timing process's machine probe; its gpu (NVML's
	// device name) says which GPU ran the row ("" before session 33's
	// H100 rows: the lent H200).
	HostProbe struct {
		GPU string `json:"gpu"`
	} `json:"host_probe"`
	Params    int64 `json:"params"`
	Trainable int64 `json:"trainable_params"`
	Res       int   `json:"res"` // image side in pixels (vision and diffusion rows that set one)
	// IO is how gt_work.py fed the model: "hfvision" for transformers'
	// image classifiers (pixel_values at 224 pixels unless res is set)
	IO        string `json:"io"`
	VAEEncode bool   `json:"vae_encode"` // diffusion rows that encode their images in the step
	// Seconds is the audio length of the Wav2Vec2 rows (io "ctc" or
	// "audiocls": raw 16 kHz audio); FreezeFE is their
	// model.freeze_feature_encoder()
	Seconds  float64 `json:"seconds"`
	FreezeFE bool    `json:"freeze_fe"`
	// generate rows (kind "gen")
	DType     string `json:"dtype"`
	Cache     string `json:"cache"`
	GradMode  string `json:"grad_mode"`
	Prompt    int    `json:"prompt"`
	NewTokens int    `json:"new_tokens"`
	Snapshot  string `json:"snapshot"`
	// DecodeTokS is a timed point's decode speed, tokens a second over
	// every sequence (timing=True jobs; zero otherwise).
	DecodeTokS float64 `json:"decode_tok_s"`
	// Job names the process a row ran in and PointIndex its place there:
	// a generate job runs its points one after another on one model.
	Job        string `json:"job"`
	PointIndex int    `json:"point_index"`
	// MaxCacheLen is the StaticCache length an earlier point of the same
	// job left on the model when it exceeds this point's need (see
	// CarryStaticCache); ReadGTRows fills it in.
	MaxCacheLen int `json:"max_cache_len,omitempty"`
	// Decoding is the generate call's decoding options as the harness
	// passed them (num_beams, do_sample and its warpers, output_scores;
	// unset: transformers' defaults), the keys a spec reads.
	memmodel.Decoding
}

// ReadGTRows reads a JSON-lines file of GTRow.
func ReadGTRows(path string) ([]GTRow, error) {
	out, err := ReadJSONL[GTRow](path)
	if err != nil {
		return nil, err
	}
	CarryStaticCache(out)
	return out, nil
}

// CarryStaticCache sets MaxCacheLen on the static-cache generate rows
// whose process ran a longer static generate before them. transformers 5
// (pull 47731) frees generate's StaticCache when the call returns but
// keeps its max_cache_len on the model and sizes a later call's cache to
// it whenever it is long enough, whatever the batch: a point after a
// longer one runs with the longer cache. Points run in PointIndex order
// within a Job; a point that ran out of memory had its cache sized (and
// the length kept) before its forward failed.
func CarryStaticCache(rows []GTRow) {
	byJob := map[string][]int{}
	for i, r := range rows {
		if r.Kind == "gen" && r.Job != "" {
			byJob[r.Job] = append(byJob[r.Job], i)
		}
	}
	for _, idx := range byJob {
		sort.SliceStable(idx, func(a, b int) bool { return rows[idx[a]].PointIndex < rows[idx[b]].PointIndex })
		kept := 0
		for _, i := range idx {
			r := &rows[i]
			if r.Cache != "static" || (r.Status != "ok" && r.Status != "oom") {
				continue
			}
			if need := r.Prompt + max(r.NewTokens, 1) - 1; kept > need {
				r.MaxCacheLen = kept
			} else {
				kept = need
			}
		}
	}
}

// GTSpec translates a training row into the plan spec it ran; a non-empty
// reason means the row has no plan spec.
func GTSpec(r GTRow) (memmodel.Spec, string) {
	s := memmodel.DefaultSpec()
	switch {
	case r.Status != "ok":
		return s, "status " + r.Status
	case r.Compile:
		return s, "compiled step: planned with plan --compile, whose band is compile.go's stated widening, not the class table (captures_test.go and TestLate4Compile hold its captures)"
	case r.Fraction > 0:
		return s, "per-process memory fraction: the allocator frees its cache near the limit"
	case r.Script == "nanogpt_train.py":
		return s, "own nanoGPT module: no catalog model"
	case r.Kind == "gen":
		return s, "inference (generate) rows are the inference planner's"
	}
	s, why, err := gtSpec(r)
	if err != nil {
		return s, err.Error()
	}
	return s, why
}

// gtSpec is the plan spec a capture row's workload ran (training or timed
// alike; GTSpec and the timed-row reader both translate through it): the
// model, shapes, precision, techniques, parallelism and the GPU its host
// probe names. A non-empty reason means the row has no plan spec; err is
// a row naming a GPU the table lacks.
func gtSpec(r GTRow) (memmodel.Spec, string, error) {
	s := memmodel.DefaultSpec()
	switch {
	case len(r.HFConfig) > 0 && string(r.HFConfig) != "null":
		s.HFConfig = r.HFConfig
	case strings.HasPrefix(r.Model, "tv:"):
		m := tvName(strings.TrimPrefix(r.Model, "tv:"))
		s.Model, s.Image = &m, r.Res
		if s.Image == 0 {
			s.Image = 224 // gt_work.py's input side unless the row sets res (not the catalog's native side)
		}
	case strings.HasPrefix(r.Model, "df:"): // diffusers models by catalog name (gt_work.py build_diffusion)
		m := strings.TrimPrefix(r.Model, "df:")
		s.Model, s.Image, s.VAEEncode = &m, r.Res, r.VAEEncode
	case r.Script == "vit_train.py":
		m := strings.ReplaceAll(r.Model, "_", "") // vit_l_16 -> vitl16
		m = strings.Replace(m, "vit", "vit-", 1)  // vit-l16
		s.Model = &m
	default:
		return s, "no model config", nil
	}
	// the head of the class the run built (its config, made from a
	// class, names no architectures)
	switch {
	case strings.HasSuffix(r.Model, "ForMaskedLM"):
		s.Head = "masked-lm"
	case strings.HasSuffix(r.Model, "ForSequenceClassification"):
		s.Head = "sequence-classification"
	case strings.HasSuffix(r.Model, "ForTokenClassification"):
		s.Head = "token-classification"
	case strings.HasSuffix(r.Model, "ForQuestionAnswering"):
		s.Head = "question-answering"
	}
	s.Batch, s.Seq, s.Accum = r.B, r.Seq, max(r.Accum, 1)
	if r.IO == "ctc" || r.IO == "audiocls" {
		fe := r.FreezeFE
		s.AudioSeconds, s.FreezeFeatureEncoder = r.Seconds, &fe
	}
	if r.IO == "hfvision" {
		s.Image = r.Res
		if s.Image == 0 {
			s.Image = 224
		}
	}
	prec := "bf16"
	if r.Prec != nil {
		prec = *r.Prec
	}
	switch prec {
	case "fp32", "bf16", "fp16", "bf16w":
		s.Precision = planPrecision(prec)
	default:
		return s, "precision " + prec, nil
	}
	switch c := r.Ckpt.(type) {
	case string:
		s.Checkpoint = c
	case bool:
		if c {
			s.Checkpoint = "block"
		}
	}
	if s.Checkpoint == "" {
		s.Checkpoint = "none"
	}
	if r.LoRA > 0 {
		s.LoRA = &memmodel.LoRA{Rank: r.LoRA, Alpha: float64(2 * r.LoRA), Targets: harnessLoRATargets(r.Model, r.LoRATargets)}
	}
	if r.Opt != "" {
		s.Optimizer = PlanOptimizer(r.Opt)
	}
	if r.HostProbe.GPU != "" {
		g, err := tableGPU(r.HostProbe.GPU)
		if err != nil {
			return s, "", err
		}
		s.GPU = g
	}
	s.Quant = r.Quant
	s.Attn = r.Attn
	s.Compile, s.ChannelsLast = r.Compile, r.ChannelsLast
	s.UseCache = r.UseCache
	if r.Kind == "sharded" {
		off := false
		s.UseCache = &off // gt_work.py's sharded() sets model.config.use_cache = False
	}
	if r.Strategy != "" {
		st := map[string]string{"fsdp2": "fsdp", "tp": "tp", "zero1": "zero1", "ddp": "ddp", "pp": "pp"}[r.Strategy]
		if st == "" {
			return s, "strategy " + r.Strategy, nil
		}
		s.Parallel.Strategy = st
		s.Parallel.Init = r.Init
		if r.Reshard != nil && !*r.Reshard {
			s.Parallel.ReshardAfterForward = r.Reshard
		}
		if r.World > 1 {
			s.Parallel.GPUs = r.World
			if st == "tp" {
				s.Parallel.TP = r.World
			}
			if st == "pp" {
				// b is the micro-batch; the step runs mb of them
				s.Parallel.PP, s.Parallel.MicroBatches, s.Parallel.Schedule = r.World, max(r.MicroBatches, 1), r.Schedule
			}
		}
	}
	return s, "", nil
}

// GenSpec translates a generate row (one point of HF generate) into the
// inference spec that describes it. grad_mode is not a spec key: the
// inference planner treats inference_mode and no_grad alike. A StaticCache
// longer than the point needs, carried from an earlier point of its
// process (CarryStaticCache), is the spec's max_cache_len.
func GenSpec(r GTRow) memmodel.Spec {
	task := "generate"
	s := memmodel.DefaultSpec()
	s.Task, s.HFConfig = &task, r.HFConfig
	s.Batch, s.Seq, s.NewTokens, s.Precision, s.Cache = r.B, r.Prompt, r.NewTokens, r.DType, r.Cache
	s.AllocConf, s.Decoding = r.AllocConf, r.Decoding
	if r.Cache == "static" {
		s.MaxCacheLen = r.MaxCacheLen
	}
	return s
}

// tvName maps a torchvision model name to the catalog's: vit_b_16 →
// vit-b16, convnext_tiny → convnext-tiny.
func tvName(n string) string {
	if rest, ok := strings.CutPrefix(n, "vit_"); ok {
		return "vit-" + strings.ReplaceAll(rest, "_", "")
	}
	return strings.ReplaceAll(n, "_", "-")
}

// harnessLoRATargets is the module list gt_work.py hands PEFT for a row: the row's own lora_targets, or
// the harness's defaults — q_proj/v_proj, Phi-3's fused qkv_proj, diffusers' to_q/to_k/to_v/to_out.0.
// gtSpec, which every reader of capture rows translates through, applies it.
func harnessLoRATargets(model string, explicit []string) []string {
	switch {
	case len(explicit) > 0:
		return explicit
	case strings.HasPrefix(model, "Phi3"):
		return []string{"qkv_proj"}
	case strings.HasPrefix(model, "df:"):
		return []string{"to_q", "to_k", "to_v", "to_out"}
	}
	return []string{"q_proj", "v_proj"}
}

// rankSuffix is what names a rank's row of a run launched by torchrun.
var rankSuffix = regexp.MustCompile(`-rank[0-9]+$`)

// RunName is the run a rank's row belongs to: its name without the
// "-rankN" torchrun rows carry.
func RunName(name string) string { return rankSuffix.ReplaceAllString(name, "") }

// LesserStages names the rows of pipeline-parallel runs that are not
// their run's fullest stage by peak reserved: plan's pipeline figure is
// the fullest stage's (a run fits when that one does), so the others are
// no measure of its error.
func LesserStages(rs []GTRow) map[string]bool {
	fullest := map[string]GTRow{}
	for _, r := range rs {
		if r.Strategy != "pp" {
			continue
		}
		k := RunName(r.Name)
		if f, ok := fullest[k]; !ok || r.MaxReserved > f.MaxReserved {
			fullest[k] = r
		}
	}
	out := map[string]bool{}
	for _, r := range rs {
		if r.Strategy == "pp" && fullest[RunName(r.Name)].Name != r.Name {
			out[r.Name] = true
		}
	}
	return out
}
