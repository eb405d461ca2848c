package memmodel

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Family is one model family: everything memmodel (and the planners built
// on it) knows about the family is in its Family value, and each family
// lives in its own family_<name>.go file, which registers it from init (as
// go/analysis registers analyzers). Adding a family is adding such a file,
// its tests and its testdata; nothing else switches on family names.
type Family struct {
	// Name is the value of Arch.Family for this family's architectures.
	Name string
	// Task is the Hugging Face task the graph models (the only one
	// supported for the family).
	Task string
	// Heads are the other heads a training plan of the family can put on
	// its trunk (spec key head): "masked-lm" for the BERT family.
	Heads []string
	// Activation: the family's MLP activation follows Arch.Decoder.Act
	// (config.json's, or override.hidden_act) though it is no Decoder
	// family (GPT-2)
	Activation bool
	// ModelTypes are the Hugging Face config.json model_type values
	// FromHF accepts.
	ModelTypes []string
	// LoRATargets are the module names PEFT adapts when a LoRA spec names
	// none.
	LoRATargets []string
	// Vision families take images; the others take token sequences.
	Vision bool
	// Audio families take raw 16 kHz audio (spec audio_seconds), which
	// their convolutional feature encoder turns into Input.Seq frames.
	Audio bool
	// BatchNorm families normalise with BatchNorm.
	BatchNorm bool
	// ScalerOverflow families overflow fp16 gradients at default init, so
	// GradScaler skips their first steps (see scalerSkippedSteps): the
	// ResNets of bottleneck blocks (Arch.scalerOverflows; ResNet-18 and -34
	// do not). EfficientNet, BatchNorm too, does not: every fp16 capture
	// of it (the blind B0 b64 trace, late5 B0 b96, late9 B0 b128, pick4 B3
	// b64x4–b256) allocates Adam's state in the first step.
	ScalerOverflow bool
	// Attention families are stacks of attention blocks: tensor
	// parallelism splits their heads and FFN, and selective checkpointing
	// recomputes their attention internals.
	Attention bool
	// AnyLength families (rotary positions) accept sequences longer than
	// Arch.MaxPos.
	AnyLength bool
	// CheckpointQuant is the quant_method of the family's own checkpoints
	// that its builders model (gpt-oss's "mxfp4"); a config.json naming
	// any other is planned unquantised, with a note
	CheckpointQuant string
	// Decoder families are recorded by buildDecoder: the spec's attn
	// key and architecture overrides apply to them.
	Decoder bool
	// Captured families were calibrated on the full H200 sweeps
	// (testdata/measured.jsonl). Documentation only: a family's band comes
	// from its held-out error in bands.json (see bands.go).
	Captured bool
	// Unmeasured, when set, says what of a family modelled from its
	// library's source the captures leave unmeasured, and which captures
	// exist (printed as a note). The band comes from the table: a family
	// with no held-out rows in it gets the widened pooled band.
	Unmeasured string
	// CkptRegion is the share of the calibration machine's checkpoint
	// region (ckptRegionCost: torch.utils.checkpoint's own Python per
	// region) that a region around one of the family's blocks costs, scaled
	// to the host as its issue cost is; 0 means the host's own region
	// (HostCosts.Ckpt). A share of the calibration machine's price, not of
	// the host's, so that the lent H100 hosts' cheaper region (fitted on
	// Hugging Face layers, held on late107) does not cheapen the
	// torchvision blocks' too, whose share was measured against the
	// calibration machine's region.
	CkptRegion float64
	// Models are the family's catalog entries; Aliases map other names
	// (torchvision, Hugging Face hub ids) to them, in lower case.
	Models  []Arch
	Aliases map[string]string
	// AliasNotes say what an alias's catalog model differs from the
	// model named in (an opus-mt pair's vocabulary), keyed as Aliases.
	AliasNotes map[string]string
	// Build records one rank's forward pass of one micro-batch of a.
	Build func(b *builder, a *Arch, in Input)
	// FromHF parses a config.json whose model_type is one of ModelTypes.
	FromHF func(modelType string, data []byte) (Arch, error)
	// PipelineLayers is how many layers pipeline parallelism can split a
	// among; nil counts Layers + DecLayers.
	PipelineLayers func(a *Arch) int
	// InputGradHeld: under LoRA with gradient checkpointing,
	// enable_input_require_grads' hooked outputs (the input embeddings
	// of every sub-model that names one) stay referenced by the graph
	// through backward: CLIP's text token embedding and vision patch
	// conv (dev97's trace), the encoder-decoders' token embeddings and
	// Whisper's encoder conv1 (dev100's T5, BART and Whisper traces). The
	// memory model then plans the graph the step-time walk does
	// (inputGradUnderCkpt); other families keep the plain one.
	InputGradHeld bool
	// NoModelParallel, when set, says why tensor and pipeline parallelism
	// (which split one stack's heads, FFN and layers) are refused for the
	// family (CLIP's two towers of different widths).
	NoModelParallel string
	// CompiledSmallGain counts the family's timed compiled/eager pairs
	// whose plan gained less than compiledSmallGain from torch.compile:
	// the pairs, and how many of them ran slower compiled. The compile
	// note (compiledGainNote) quotes the family's count where it has at
	// least compiledFamilyPairs pairs, else the count over every
	// convolutional family (compile_gain.go).
	CompiledSmallGain SmallGainCount
	// CompiledHost scales what Inductor's compiled step costs the host at
	// a real batch (compiledRealBatchHost) for this family; 0 means 1.
	CompiledHost float64
}

// SmallGainCount is a count of timed compiled/eager pairs (see
// Family.CompiledSmallGain).
type SmallGainCount struct {
	Pairs, Slower int
}

// Input is the shape of one micro-batch a graph is built for.
type Input struct {
	Batch int64
	Seq   int64 // text families
	Image int64 // vision families: image side in pixels
	// Cache is transformers' use_cache, which it turns off under gradient
	// checkpointing.
	Cache bool
	// Checkpoint is transformers' gradient_checkpointing (block
	// checkpointing of an HF model), which also makes T5's
	// cross-attention bias a leaf that requires grad.
	Checkpoint bool
	// VAEEncode: the latent diffusion families encode the images with
	// their frozen VAE inside the step (family_vae.go).
	VAEEncode bool
	// Samples is the audio families' input: 16 kHz samples per sample
	// (Seq is then the feature encoder's frames); FreezeFeatures is
	// freeze_feature_encoder() (Spec.FreezeFeatureEncoder).
	Samples        int64
	FreezeFeatures bool
}

// registry holds the registered families and the catalog they contribute;
// it is filled by init functions only and read-only afterwards.
var registry = struct {
	families  map[string]*Family
	modelType map[string]*Family
	models    map[string]Arch
	aliases   map[string]string
	notes     map[string]string
}{map[string]*Family{}, map[string]*Family{}, map[string]Arch{}, map[string]string{}, map[string]string{}}

// register adds f; a duplicate name is a programming error.
func register(f *Family) {
	r := &registry
	if f.Name == "" || f.Build == nil || f.Task == "" {
		panic("memmodel: family " + f.Name + " needs a name, a task and a builder")
	}
	if _, dup := r.families[f.Name]; dup {
		panic("memmodel: family " + f.Name + " registered twice")
	}
	r.families[f.Name] = f
	for _, t := range f.ModelTypes {
		if _, dup := r.modelType[t]; dup {
			panic("memmodel: model_type " + t + " registered twice")
		}
		r.modelType[t] = f
	}
	for _, a := range f.Models {
		if a.Family != f.Name {
			panic("memmodel: model " + a.Name + " is not of family " + f.Name)
		}
		if _, dup := r.models[a.Name]; dup {
			panic("memmodel: model " + a.Name + " registered twice")
		}
		r.models[a.Name] = a
	}
	for k, v := range f.Aliases {
		r.aliases[k] = v
	}
	for k, v := range f.AliasNotes {
		r.notes[k] = v
	}
}

// AliasNote is what the catalog model an alias names differs in from the
// model the alias is the name of ("" when nothing, or name is no alias).
func AliasNote(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	if s, ok := registry.notes[n]; ok {
		return s
	}
	_, base, _ := strings.Cut(n, "/")
	return registry.notes[base]
}

// LookupFamily finds a registered family by name.
func LookupFamily(name string) (*Family, error) {
	if f, ok := registry.families[name]; ok {
		return f, nil
	}
	return nil, fmt.Errorf("unknown model family %q%s", name, suggest(name, FamilyNames()))
}

// FamilyNames lists the registered families, sorted.
func FamilyNames() []string { return sortedKeys(registry.families) }

// noFamily answers for an Arch whose family is not registered (one built
// by hand): no capability; resolve rejects such an Arch before building.
var noFamily = &Family{}

// family is a's registered family, or noFamily.
func (a *Arch) family() *Family {
	if f, ok := registry.families[a.Family]; ok {
		return f
	}
	return noFamily
}

// Lookup finds a catalog model by name or alias (case-insensitive).
func Lookup(name string) (Arch, error) {
	n := canonicalName(name)
	if a, ok := registry.models[n]; ok {
		// a copy: rankArch splits the stage lists of a pipeline stage in place
		a.Blocks = append([]int(nil), a.Blocks...)
		a.Widths = append([]int(nil), a.Widths...)
		return a, nil
	}
	return Arch{}, fmt.Errorf("unknown model %q%s (known: %s)", name, nearestModel(n), strings.Join(Names(), ", "))
}

// Names lists the catalog's model names, sorted.
func Names() []string { return sortedKeys(registry.models) }

// ParseHFConfig turns a Hugging Face config.json into an Arch through the
// family that registered its model_type.
func ParseHFConfig(data []byte) (Arch, error) {
	var h struct {
		ModelType string   `json:"model_type"`
		Archs     []string `json:"architectures"`
	}
	if err := json.Unmarshal(data, &h); err != nil {
		return Arch{}, hfJSONErr(err)
	}
	if h.ModelType == "" {
		return Arch{}, fmt.Errorf("config.json: model_type missing")
	}
	f, ok := registry.modelType[h.ModelType]
	if !ok || f.FromHF == nil {
		types := sortedKeys(registry.modelType)
		return Arch{}, fmt.Errorf("config.json: model_type %q is not supported%s (supported: %s)",
			h.ModelType, nearestModelType(h.ModelType, data), strings.Join(types, ", "))
	}
	a, err := f.FromHF(h.ModelType, data)
	if err != nil {
		return Arch{}, err
	}
	if f.Decoder {
		a.Decoder.RopeFactor = ropeFactor(data, a.MaxPos)
	}
	if len(h.Archs) > 0 {
		// the class the config was saved from picks the head where the
		// family plans it (spec head overrides it)
		a.HFClass = h.Archs[0]
		a.Head = f.headOfClass(a.HFClass)
	}
	if err := checkHFArch(&a); err != nil {
		return Arch{}, err
	}
	return a, nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
