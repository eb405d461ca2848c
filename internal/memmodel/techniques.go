package memmodel

import (
	"fmt"
	"strings"

	"github.com/vramkit/vramkit/internal/units"
)

// resolveTechniques validates and applies the spec keys that change how
// the model runs rather than what it is (attn, compile, quant) and the
// architecture overrides. Every refusal names what is unsupported and
// the nearest supported alternative.
func (c *config) resolveTechniques() error {
	s := c.spec
	fam := c.arch.family()
	c.attn = s.Attn
	if c.attn == "" {
		c.attn = "sdpa"
	}
	if !contains(AttnImpls, c.attn) {
		return specErr("attn", "%q is not an attention implementation%s (want %s)", s.Attn, suggest(s.Attn, AttnImpls), strings.Join(AttnImpls, "|"))
	}
	if c.attn != "sdpa" && !fam.Decoder {
		return specErr("attn", "%s is modelled for the Llama-like decoders (%s), not %s; use sdpa (the default) for %s",
			c.attn, strings.Join(decoderFamilies(), ", "), c.arch.Family, c.arch.Family)
	}
	if c.attn == "flash" && c.amp == F32 && c.pdt == F32 {
		return specErr("attn", "flash attention needs half precision (bf16-amp, fp16-amp, bf16); use mem_efficient for fp32")
	}
	if s.Compile && c.spec.Parallel.Strategy != "none" {
		return specErr("compile", "compiled steps are modelled on one GPU; plan %s without compile (an upper bound)", s.Parallel.Strategy)
	}
	if s.ChannelsLast && !channelsLastFamilies[c.arch.Family] {
		return specErr("channels_last", "channels-last is modelled for the torchvision CNNs (resnet, efficientnet, convnext), not %s; leave it out", c.arch.Family)
	}
	if s.VAEEncode && fam.Task != "diffusion" {
		return specErr("vae_encode", "only the latent diffusion families (unet, dit) encode images with a VAE, not %s; leave it out", c.arch.Family)
	}
	switch s.Quant {
	case "":
	case "nf4", "fp4":
		if s.LoRA == nil {
			return specErr("quant", "%s base weights are frozen, so they need LoRA adapters (QLoRA); add a lora rank (e.g. lora {rank: 16})", s.Quant)
		}
		if !fam.Decoder {
			return specErr("quant", "4-bit base weights are modelled for the Llama-like decoders (%s), not %s; use LoRA on bf16 weights (precision bf16)",
				strings.Join(decoderFamilies(), ", "), c.arch.Family)
		}
	default:
		return specErr("quant", "%q is not supported%s; use nf4 (bitsandbytes 4-bit, QLoRA) or leave it out", s.Quant, suggest(s.Quant, []string{"nf4", "fp4"}))
	}
	return c.applyOverride()
}

// applyOverride changes c.arch as the spec's override asks.
func (c *config) applyOverride() error {
	o := c.spec.Override
	if o == nil {
		return nil
	}
	a := &c.arch
	if o.HiddenAct != "" {
		act, ok := overrideAct(o.HiddenAct)
		if !ok {
			return specErr("override.hidden_act", "%q is not one planned: gelu_pytorch_tanh, gelu, silu (one kernel), gelu_new, gelu_fast (Python operators)", o.HiddenAct)
		}
		if !a.family().Decoder && !a.family().Activation {
			return specErr("override.hidden_act", "%s's activation is not modelled as a choice; it is for the decoder LMs (%s) and gpt2",
				a.Family, strings.Join(decoderFamilies(), ", "))
		}
		a.Decoder.Act = act
		if *o == (Override{HiddenAct: o.HiddenAct}) {
			return nil
		}
	}
	if !a.family().Decoder {
		return specErr("override", "architecture overrides are modelled for the Llama-like decoders (%s), not %s; describe the changed model with hf_config instead",
			strings.Join(decoderFamilies(), ", "), a.Family)
	}
	if o.TieWordEmbeddings != nil {
		a.Tied = *o.TieWordEmbeddings
	}
	if kv := o.NumKeyValueHeads; kv != 0 {
		if kv < 0 || a.Heads%kv != 0 {
			return specErr("override.num_key_value_heads", "%d does not divide the %d attention heads; nearest divisor: %d", kv, a.Heads, nearestDivisor(a.Heads, kv))
		}
		a.KVHeads = kv
	}
	if n := o.IntermediateSize; n != 0 {
		if n < 0 {
			return specErr("override.intermediate_size", "must be positive, got %d", n)
		}
		if a.MoE.Experts > 0 {
			a.MoE.FFN = n
		}
		a.FFN = n
	}
	if n := o.NumHiddenLayers; n != 0 {
		if n < 0 {
			return specErr("override.num_hidden_layers", "must be positive, got %d", n)
		}
		if n > MaxLayers {
			return specErr("override.num_hidden_layers", "at most %d: every layer is replayed through the allocator, got %d", MaxLayers, n)
		}
		a.Layers = n
	}
	if o.LowRank < 0 {
		return specErr("override.low_rank", "must be positive, got %d", o.LowRank)
	}
	// a pair of rank r has fewer parameters than W (in×out) only for
	// r < in·out/(in+out), below the hidden size every projection has on
	// one side: a rank at or past it would factorise nothing, silently
	if a.Hidden > 0 && o.LowRank >= a.Hidden {
		return specErr("override.low_rank", "%d factorises no projection of %s: a rank-r pair is smaller than W (in×out) only below in·out/(in+out), less than the hidden size %d",
			o.LowRank, a.Name, a.Hidden)
	}
	if b := hfParamBound(a) * 16; b > MaxStepBytes {
		return specErr("override", "too large to plan: the parameters alone could take up to %s under Adam, past the %s vramkit computes in",
			scaleBytes(b), units.Bytes(MaxStepBytes))
	}
	return nil
}

// nearestDivisor is the divisor of n closest to k (the smaller on a tie).
func nearestDivisor(n, k int) int {
	best := 1
	for d := 1; d <= n; d++ {
		if n%d == 0 && abs(d-k) < abs(best-k) {
			best = d
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// decoderFamilies lists the families buildDecoder records.
func decoderFamilies() []string {
	var out []string
	for _, n := range FamilyNames() {
		if registry.families[n].Decoder {
			out = append(out, n)
		}
	}
	return out
}

// The stated widenings of techniques modelled from source, as fractions
// of the prediction each side: 4-bit QLoRA weights without enough held-out
// captures, a low-rank what-if.
const (
	qloraWiden   = 0.08
	lowRankWiden = 0.03
)

// techniqueNotes says which techniques of c are modelled from library
// source rather than measured, and how much wider that makes the band.
func (c *config) techniqueNotes(t *BandTable) (notes []string, widen float64) {
	if c.spec.Quant != "" {
		// QLoRA is the lora=qlora class of the band table: measured where
		// it has enough held-out captures, else a stated wider band
		if q := t.Classes["lora=qlora"]; q.N >= t.MinRows {
			notes = append(notes, fmt.Sprintf("4-bit base weights (%s, blocksize 64, double quantisation, peft's prepare_model_for_kbit_training) are modelled from bitsandbytes' source; the band is measured on %d held-out QLoRA captures", c.spec.Quant, q.N))
		} else {
			notes = append(notes, fmt.Sprintf("4-bit base weights (%s, blocksize 64, double quantisation, peft's prepare_model_for_kbit_training) are modelled from bitsandbytes' source, with fewer than %d held-out captures: band widened by %.0f%% each side", c.spec.Quant, t.MinRows, 100*qloraWiden))
			widen += qloraWiden
		}
		if c.spec.Checkpoint == "none" {
			notes = append(notes, "peft's prepare_model_for_kbit_training turns gradient checkpointing on by default (use_gradient_checkpointing=True): if your script calls it that way, plan with --checkpoint block")
		}
		if c.arch.MoE.Experts > 0 {
			notes = append(notes, "the experts are 3-D parameters, not nn.Linear modules, so bitsandbytes leaves them unquantised: only attention, shared experts and routers take 4 bits")
		}
	}
	if c.opt.Source != "" {
		notes = append(notes, c.opt.Source)
	}
	if c.attn == "eager" || c.attn == "math" {
		// the band comes from the attn=eager class of the band table
		// (captures of eager GPT-2, LLaMA and Qwen3 steps), or is widened
		// as an unmeasured class when it has too few rows
		notes = append(notes, fmt.Sprintf("%s attention is modelled from the transformers/PyTorch source (score matrices kept for backward)", c.attn))
	}
	if c.spec.Parallel.Init == "meta" {
		notes = append(notes, fmt.Sprintf("FSDP2 from the meta device (fully_shard, then to_empty and a sharded load: each rank allocates only its shards) is modelled from its source; no capture loaded that way: band widened by %.0f%% each side", 100*unmeasuredWiden))
		widen += unmeasuredWiden
	}
	if t.MaxSeq > 0 && !c.arch.Vision() && c.seq > int64(t.MaxSeq) {
		// attention, the loss over the logits and the allocator's
		// placement at this length are the model's, not measured
		notes = append(notes, fmt.Sprintf("no held-out capture ran sequences longer than %d tokens (this one: %d): band widened by %.0f%% each side", t.MaxSeq, c.seq, 100*unmeasuredWiden))
		widen += unmeasuredWiden
	}
	if c.spec.Compile {
		notes = append(notes, fmt.Sprintf("torch.compile is modelled from AOTAutograd's partitioner and Inductor (fused pointwise ops, their saved tensors recomputed, the residual stream saved, the backward's gradient inputs); on 29 measured compiled steps reserved −8.9%%..+8.4%% (BERT-base with its padding mask −8.9%%, EfficientNet-B0 −4.4%%, GPT-2 medium −3.9%%; Qwen3 and ResNet-50 over by up to 8.4%%): band widened by %.0f%% each side", 100*compileBand))
		widen += compileBand
	}
	if o := c.spec.Override; o != nil && o.LowRank > 0 {
		notes = append(notes, fmt.Sprintf("projections factorised at rank %d (override.low_rank): a what-if model, not measured: band widened by %.0f%% each side", o.LowRank, 100*lowRankWiden))
		widen += lowRankWiden
	}
	return notes, widen
}

// overrideAct is DecoderQuirks.Act for a hidden_act override, and
// whether the name is one planned.
func overrideAct(name string) (string, bool) {
	switch name {
	case "gelu_pytorch_tanh", "gelu", "gelu_new", "gelu_fast", "silu", "swish":
		return hfGelu(name, ""), true
	}
	return "", false
}
