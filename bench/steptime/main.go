// Command steptime prints vramkit's predicted step time next to the time
// measured on the GPU for every workload of one or more timing.jsonl files,
// and the acceptance figures of issue 14 from that one run: median and
// maximum |error|, the error of the ratio between techniques on one model
// (AMP, checkpointing, LoRA, accumulation) and how often the faster of two
// configurations is predicted faster.
//
//	go run ./bench/steptime [-host JSON] [FILE.jsonl ...]
//
// Without arguments it reads every timed set in the repository, each with
// the host costs of the machine that timed it: the calibration machine's
// development timings (testdata/captures/timing and compile), its
// held-out set (testdata/heldout/timing) and its `plan --fit` picks
// (testdata/late/pick), then the older machine's fixtures, unseen and
// blind sets (measured.OlderHostCosts), then the sets timed on lent
// machines, each workload with its GPU's median lent host's costs
// (memmodel.LentHostCosts, what a plan assumes; -host gives them other
// costs): the second picks
// (testdata/pick2 .. pick7), late2..late11 (late5 twice, its rerun), dev6, the
// host-bound tiny-shape rows of dev7/host, dev8/host and dev9/host (dev9:
// plain and checkpointed steps), late12, late13 and late14 (seen since their evaluations),
// dev11 (checkpointing and LoRA pairs across batch sizes) and dev13
// (host-bound rows repeated in three processes, Whisper and Gemma 3 pairs),
// dev17 (plain and checkpointed steps from all-host to GPU-bound), late15
// and late16 (seen since their evaluations), dev19 (five host-bound
// checkpointing pairs in three processes), late17 (seen since its
// evaluation), dev21 (mixture-of-experts steps at host-bound shapes),
// and late18 (blind MoE steps), and the later sets defaultSets lists with
// what each holds.
// It prints the figures of each set and of all of them together.
//
// -memsets instead plans the memory sets' training rows timed without
// history (testdata/*/families) and prints their measured over planned
// step by technique and family, a search for what the plan misses
// (memsets.go).
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"reflect"
	"strings"

	"github.com/vramkit/vramkit/bench/measured"
	"github.com/vramkit/vramkit/internal/memmodel"
)

// set is timing files measured on one host.
type set struct {
	name  string
	files []string
	host  memmodel.HostCosts
}

// defaultSets is every timed set in the repository with its host.
func defaultSets() []set {
	// lent: each plan's own default, the median lent host of the
	// workload's GPU (memmodel.LentHostCosts)
	cal, lent, old := memmodel.CalibrationHostCosts(), memmodel.HostCosts{}, measured.OlderHostCosts()
	return []set{
		{"development (calibration host)", []string{"testdata/captures/timing/timing.jsonl",
			"testdata/captures/compile/timing.jsonl"}, cal},
		{"held out (calibration host)", []string{"testdata/heldout/timing/timing.jsonl"}, cal},
		{"plan --fit picks (calibration host)", []string{"testdata/late/pick/results.jsonl"}, cal},
		{"fixtures, unseen, blind (older host)", []string{"internal/memmodel/testdata/timing.jsonl",
			"testdata/unseen/timing.jsonl", "testdata/blind/timing.jsonl"}, old},
		{"plan --fit picks 2 (lent H200)", []string{"testdata/pick2/results.jsonl"}, lent},
		{"plan --fit picks 3 (lent H200)", []string{"testdata/pick3/results.jsonl"}, lent},
		{"plan --fit picks 4 (lent H200)", []string{"testdata/pick4/results.jsonl"}, lent},
		{"plan --fit picks 5 (lent H200)", []string{"testdata/pick5/results.jsonl"}, lent},
		{"plan --fit picks 6 (lent H200)", []string{"testdata/pick6/results.jsonl"}, lent},
		{"plan --fit picks 7 (lent H200)", []string{"testdata/pick7/results.jsonl"}, lent},
		{"late2 (lent H200)", []string{"testdata/late2/timing/results.jsonl"}, lent},
		{"late3 (lent H200)", []string{"testdata/late3/timing/results.jsonl"}, lent},
		{"late4 (lent H200)", []string{"testdata/late4/timing/results.jsonl"}, lent},
		{"late5 (lent H200)", []string{"testdata/late5/timing/results.jsonl"}, lent},
		{"late5 rerun (lent H200)", []string{"testdata/late5/timing-rerun/results.jsonl"}, lent},
		{"late6 (lent H200)", []string{"testdata/late6/timing/results.jsonl"}, lent},
		{"late7 (lent H200)", []string{"testdata/late7/timing/results.jsonl"}, lent},
		{"late8 (lent H200)", []string{"testdata/late8/timing/results.jsonl"}, lent},
		{"late9 (lent H200)", []string{"testdata/late9/timing/results.jsonl"}, lent},
		{"late10 (lent H200)", []string{"testdata/late10/timing/results.jsonl"}, lent},
		{"late11 (lent H200)", []string{"testdata/late11/timing/results.jsonl"}, lent},
		{"dev6 (lent H200)", []string{"testdata/dev6/timing/results.jsonl"}, lent},
		{"dev7 host (lent H200)", []string{"testdata/dev7/host/results.jsonl"}, lent},
		{"dev8 host (lent H200)", []string{"testdata/dev8/host/results.jsonl"}, lent},
		{"dev9 host (lent H200)", []string{"testdata/dev9/host/results.jsonl"}, lent},
		{"late12 (lent H200)", []string{"testdata/late12/timing/results.jsonl"}, lent},
		{"late13 (lent H200)", []string{"testdata/late13/timing/results.jsonl"}, lent},
		{"dev11 (lent H200)", []string{"testdata/dev11/timing/results.jsonl"}, lent},
		{"dev13 (lent H200)", []string{"testdata/dev13/timing/results.jsonl"}, lent},
		{"late14 (lent H200, seen since its evaluation)", []string{"testdata/late14/timing/results.jsonl"}, lent},
		{"dev17 (lent H200)", []string{"testdata/dev17/timing/results.jsonl"}, lent},
		{"late15 (lent H200, seen since its evaluation)", []string{"testdata/late15/timing/results.jsonl"}, lent},
		{"late16 (lent H200, seen since its evaluation)", []string{"testdata/late16/timing/results.jsonl"}, lent},
		{"dev19 (lent H200: five host-bound checkpointing pairs in three processes)", []string{"testdata/dev19/results.jsonl"}, lent},
		{"late17 (lent H200, seen since its evaluation)", []string{"testdata/late17/timing/results.jsonl"}, lent},
		{"dev21 (lent H200: MoE layers' host cost, host-bound shapes)", []string{"testdata/dev21/timing/results.jsonl"}, lent},
		{"late18 (lent H200: blind MoE steps, seen since its evaluation)", []string{"testdata/late18/timing/results.jsonl"}, lent},
		{"late19 (lent H200, seen since its evaluation)", []string{"testdata/late19/timing/results.jsonl"}, lent},
		{"late22 (lent H200, seen since its evaluation)", []string{"testdata/late22/timing/results.jsonl"}, lent},
		{"late24 (lent H200: compiled steps against eager, seen since its evaluation)", []string{"testdata/late24/timing/results.jsonl"}, lent},
		{"late25 (lent H200: compiled steps against eager, seen since its evaluation)", []string{"testdata/late25/timing/results.jsonl"}, lent},
		{"pick8 (lent H200, seen since its evaluation)", []string{"testdata/pick8/results.jsonl"}, lent},
		{"late26 (lent H200, seen since its evaluation)", []string{"testdata/late26/timing/results.jsonl"}, lent},
		{"late27 (lent H200: host-bound checkpointed CNNs, compiled steps; seen since its evaluation)", []string{"testdata/late27/timing/results.jsonl"}, lent},
		{"late28 (lent H200: compiled ResNet-34/18, seen since its evaluation)", []string{"testdata/late28/timing/results.jsonl"}, lent},
		{"late29 (lent H200: small-batch CNNs, seen since its evaluation)", []string{"testdata/late29/timing/results.jsonl"}, lent},
		{"late30 (lent H200, seen since its evaluation)", []string{"testdata/late30/timing/results.jsonl"}, lent},
		{"late31 (lent H200: GPU-bound CNNs in fp16 and bf16, seen since its evaluation)", []string{"testdata/late31/timing/results.jsonl"}, lent},
		{"late32 (lent H200: compiled steps against eager, seen since its evaluation)", []string{"testdata/late32/timing/results.jsonl"}, lent},
		{"late59 (lent H200: compiled CNN steps against eager, seen since its evaluation)", []string{"testdata/late59/timing/results.jsonl"}, lent},
		{"late61 (lent H100: H200-timed workloads re-run, seen since its evaluation)", []string{"testdata/late61/timing/results.jsonl"}, lent},
		{"late60 (lent H100: compiled CNN steps against eager, seen since its evaluation)", []string{"testdata/late60/timing/results.jsonl"}, lent},
		{"dev64 (lent H100: compiled ResNet-18 at 2..64 samples, ResNet-50 at 8 and 32)", []string{"testdata/dev64/timing/results.jsonl"}, lent},
		{"late62 (lent H200: compiled CNN pairs around compiledRealBatch, one compiled model per process, seen since its evaluation)", []string{"testdata/late62/timing/results.jsonl"}, lent},
		{"dev65 (lent H200: second compiled ResNets of one process, with dynamic batch)", []string{"testdata/dev65/timing/results.jsonl"}, lent},
		{"late60 on an H200 (seen workloads, another GPU)", []string{"testdata/late60/h200/results.jsonl"}, lent},
		{"late63 (lent H100: eager/compiled CNN pairs under the small-gain line, seen since its evaluation)", []string{"testdata/late63/h100/results.jsonl"}, lent},
		{"late63 on an H200 (lent, slow host: the rest of its pairs, seen since its evaluation)", []string{"testdata/late63/h200/results.jsonl"}, lent},
		{"dev66 (lent H200: compiled CNN steps over forty steps, one compiled model per process)", []string{"testdata/dev66/timing/results.jsonl"}, lent},
		{"late99 (lent H100, a fast host: blind eager/compiled CNN twins, one workload per process, evaluated once at 1ee570ac)", []string{"testdata/late99/timing/results.jsonl"}, lent},
		{"dev109 (lent H100, late99's host: eager/compiled CNN twins, one workload per process)", []string{"testdata/dev109/timing/results.jsonl"}, lent},
		{"late100 (lent H100, a median host: blind Pythia-160m, OPT-350m, DistilBERT, Swin-T, ResNet-152 technique and batch variants, evaluated once at 1e301781)", []string{"testdata/late100/timing/results.jsonl"}, lent},
		{"dev112 (lent H100: each model's configurations alternated step by step in one process, gt_alternate.py)", []string{"testdata/dev112/dev112-timing/results.jsonl"}, lent},
		{"late101 (lent H100, the host of dev112: blind technique pairs alternated step by step in one process, evaluated once at 14a49838; seen since)", []string{"testdata/late101/late101-timing/results.jsonl"}, lent},
		{"late102 (lent H100: blind technique pairs alternated in one process, the session-56 refit's test, evaluated once)", []string{"testdata/late102/late102-timing/results.jsonl"}, lent},
		{"dev113 (lent H100, a fast host: checkpointing where the GPU is busy, alternated in one process)", []string{"testdata/dev113/dev113-timing/results.jsonl"}, lent},
		{"dev114 (lent H100, a median host: dev113's checkpoint pairs and two host-bound models, alternated in one process)", []string{"testdata/dev114/dev114-timing/results.jsonl"}, lent},
		{"late103 (lent H100, a slow host: blind technique pairs of ELECTRA, Whisper, Marian and ResNet-152 alternated in one process, evaluated once at ab04ca93)", []string{"testdata/late103/late103-timing/results.jsonl"}, lent},
		{"late104 (lent H100, a fast host: blind bf16 eager/compiled pairs of six CNNs alternated in one process, evaluated once at 348c6de9)", []string{"testdata/late104/late104-timing/results.jsonl"}, lent},
		{"late105 (lent H100, a slow host: blind bf16 eager/compiled pairs of six CNNs alternated in one process, evaluated once at 11ddb6fd)", []string{"testdata/late105/late105-timing/results.jsonl"}, lent},
		{"late106 (lent H200: blind bf16 eager/compiled pairs of five ResNets and EfficientNet-B0 alternated in one process, evaluated once at 5acd8529)", []string{"testdata/late106/late106-timing/results.jsonl"}, lent},
		{"late107 (lent H100s, a slow host and the fastest: blind checkpointing pairs of six models alternated in one process, evaluated once at 2b449349)", []string{"testdata/late107/late107-timing/results.jsonl"}, lent},
		{"dev115 (lent H100, late103's slow host: six configurations dev112, dev114 and late101 timed, alternated in one process)", []string{"testdata/dev115/dev115-timing/results.jsonl"}, lent},
		{"dev116 (lent H200, a slow host: seven transformers' fp32, bf16 and bf16-checkpointed steps alternated in one process, the H200 hosts' first alternated pairs)", []string{"testdata/dev116/dev116-timing/results.jsonl"}, lent},
		{"dev117 alternated (lent H100, a noisy host: BERT-base and GPT-2 technique pairs alternated in one process)", []string{"testdata/dev117/alternated/results.jsonl"}, lent},
		{"dev117 own processes (the same host and configurations, each alone in its own process)", []string{"testdata/dev117/own/results.jsonl"}, lent},
		{"dev119 (lent H100, late107's fast host: EfficientNet-B0 b8, b16, b32 bf16 eager/compiled alternated in one process)", []string{"testdata/dev119/dev119-timing/results.jsonl"}, lent},
		{"dev120 (the same H100 host: EfficientNet-B0 b64 and B1 b16 bf16 eager/compiled alternated in one process)", []string{"testdata/dev120/dev120-timing/results.jsonl"}, lent},
		{"dev67 (lent H200: eager steps with the host's forward/backward/optimizer split)", []string{"testdata/dev67/timing/results.jsonl"}, lent},
		{"dev68 (lent H100: host-bound accumulation with the host's phase split)", []string{"testdata/dev68/timing/results.jsonl"}, lent},
		{"late64 (lent H100: technique pairs with the host's phase split, seen since its evaluation)", []string{"testdata/late64/results.jsonl"}, lent},
		{"late65 (lent H100, a fast host: technique pairs with the host's phase split, seen since its evaluation)", []string{"testdata/late65/results.jsonl"}, lent},
		{"late66 (lent H100, the fastest host: technique pairs on five new families with the host's phase split, seen since its evaluation)", []string{"testdata/late66/results.jsonl"}, lent},
		{"late92 (lent H100: T5-base and BART-large full, LoRA and LoRA checkpointed, evaluated once at 9f1ac3d)", []string{"testdata/late92/timing/results.jsonl"}, lent},
		{"late67 (lent H100, a medium-slow host: GPT-2, ViT-B/16, Llama-small, ConvNeXt-T technique pairs with the host's phase split, seen since its evaluation)", []string{"testdata/late67/results.jsonl"}, lent},
		{"late68 (lent H100, a fast host: GPU-bound to balanced Llama-1B, Qwen2.5-0.5B, ResNet-50, EfficientNet-B0, BERT, GPT-2 medium pairs, seen since its evaluation)", []string{"testdata/late68/results.jsonl"}, lent},
		{"late69 (lent H100: GPU-bound to balanced Qwen3, Gemma 3, OLMo 2, Granite, ViT, ConvNeXt, T5, RoBERTa pairs, seen since its evaluation)", []string{"testdata/late69/results.jsonl"}, lent},
		{"dev69 (lent H100: LoRA pairs with the host's phase split)", []string{"testdata/dev69/timing/results.jsonl"}, lent},
		{"dev35 (lent H200: eager channels-last CNNs beside NCHW)", []string{"testdata/dev35/dev35-timing/results.jsonl"}, lent},
		{"late33 (lent H200: blind channels-last twins, seen since its evaluation)", []string{"testdata/late33/timing/results.jsonl"}, lent},
		{"late34 (lent H200: blind channels-last twins, seen since its evaluation)", []string{"testdata/late34/timing/results.jsonl"}, lent},
		{"late35 (lent H200: blind channels-last steps, float32 among them, seen since its evaluation)", []string{"testdata/late35/timing/results.jsonl"}, lent},
		{"late36 (lent H200: blind steps of the capture script's models, seen since its evaluation)", []string{"testdata/late36/timing/results.jsonl"}, lent},
		{"late37 (lent H200: blind BERT variants and channels-last CNNs, seen since its evaluation)", []string{"testdata/late37/timing/results.jsonl"}, lent},
		{"late39 (lent H200: blind float32 transformers with and without checkpointing, seen since its evaluation)", []string{"testdata/late39/timing/results.jsonl"}, lent},
		{"late40 (lent H200: blind ViTs with and without checkpointing, seen since its evaluation)", []string{"testdata/late40/timing/results.jsonl"}, lent},
		{"late42 (lent H200: blind decoder and T5 technique pairs, seen since its evaluation)", []string{"testdata/late42/timing/results.jsonl"}, lent},
		{"late43 (lent H200: blind selective-checkpointing pairs, seen since its evaluation)", []string{"testdata/late43/timing/results.jsonl"}, lent},
		{"late46 (lent H200: technique pairs on GPT-2 large, Llama 3.2 1B, ViT-L/16, ConvNeXt-S, five of eight repeating earlier sets' configurations)", []string{"testdata/late46/timing/results.jsonl"}, lent},
		{"late47 (lent H200: blind pairs of the capture script's models, seen since its evaluation)", []string{"testdata/late47/timing/results.jsonl"}, lent},
		{"late48 (lent H200: blind technique pairs of the capture script's models, seen since its evaluation)", []string{"testdata/late48/timing/results.jsonl"}, lent},
		{"late49 (lent H200: blind T5, BERT-large and GPT-2 pairs on the session-25 attention changes, seen since its evaluation)", []string{"testdata/late49/timing/results.jsonl"}, lent},
		{"late53 (lent H200: blind GELU- and bias-heavy ViT, ConvNeXt, BERT, Whisper and GPT-2 steps, seen since its evaluation)", []string{"testdata/late53/timing/results.jsonl"}, lent},
		{"late54 (lent H200: blind ConvNeXt, ViT and two controls, seen since its evaluation)", []string{"testdata/late54/timing/results.jsonl"}, lent},
		{"late55 (lent H200: blind ResNet-18/34 and BERT-family encoders, seen since its evaluation)", []string{"testdata/late55/timing/results.jsonl"}, lent},
		{"plan --fit picks 9 (lent H200: channels-last choices, seen since its evaluation)", []string{"testdata/pick9/results.jsonl"}, lent},
		{"plan --fit picks 10 (lent H200: choices under a memory budget, seen since its evaluation)", []string{"testdata/pick10/results.jsonl"}, lent},
	}
}

func main() {
	fit := flag.Bool("fit-host", false, "fit the host costs (memmodel.HostCosts) to the files instead of printing")
	fitPhases := flag.Bool("fit-phases", false, "with -fit-host: hold the walk's forward/backward/optimizer host split to the measured one too, and fit Param")
	fitKeep := flag.String("fit-keep", "", "with -fit-host: comma-separated costs to keep at their -host value (op, cast, bwd, hook, step, param)")
	fitWithin := flag.Bool("fit-within", false, "with -fit-host: score each row's log error less its file's median (each file a host of its own speed): the fit moves the costs' relative prices only")
	fitAdd := flag.String("fit-add", "", "with -fit-host: comma-separated costs to fit besides those (small, node)")
	profile := flag.String("profile", "", "compare the model's host time, GPU time and kernel counts with the kernel profiles in this directory (testdata/profile)")
	classes := flag.Bool("classes", false, "print the walk's host time, GPU time and kernels by class for each timed workload of the files")
	across := flag.Bool("across", false, "pair each workload of the files (timed on another GPU, named PREFIX-NAME) with NAME in the repository's sets and print the two GPUs' measured and predicted step-time ratio")
	memsets := flag.Bool("memsets", false, "plan the memory sets' training rows timed without history (testdata/*/families, or the files given) and print measured over planned step by technique and family: a search for what the plan misses, not an accuracy figure")
	modhost := flag.Bool("modhost", false, "read the files as gt_modhost.py rows (testdata/dev69, dev70) and print the walk's host time and op and node counts beside each whole model's measured ones")
	hostJSON := flag.String("host", "", "host costs as memmodel.HostCosts JSON, or @FILE holding it (hosts/*.json), read over the median lent H200 host's (memmodel.DefaultHostCosts) and given to every lent set whatever its GPU; without it each plan takes its GPU's lent host (memmodel.LentHostCosts)")
	flag.Parse()
	host, err := hostCosts(*hostJSON)
	if err != nil {
		fmt.Fprintln(os.Stderr, "steptime: -host:", err)
		os.Exit(2)
	}
	if *profile != "" {
		if err := compareProfiles(*profile, host); err != nil {
			fmt.Fprintln(os.Stderr, "steptime:", err)
			os.Exit(1)
		}
		return
	}
	if *across {
		if err := printAcross(flag.Args(), host); err != nil {
			fmt.Fprintln(os.Stderr, "steptime:", err)
			os.Exit(1)
		}
		return
	}
	if *memsets {
		if err := printMemsets(flag.Args(), host); err != nil {
			fmt.Fprintln(os.Stderr, "steptime:", err)
			os.Exit(1)
		}
		return
	}
	if *modhost {
		if err := printModhost(flag.Args(), host); err != nil {
			fmt.Fprintln(os.Stderr, "steptime:", err)
			os.Exit(1)
		}
		return
	}
	if *classes {
		if err := printClasses(flag.Args(), host); err != nil {
			fmt.Fprintln(os.Stderr, "steptime:", err)
			os.Exit(1)
		}
		return
	}
	sets := defaultSets()
	if files := flag.Args(); len(files) > 0 {
		sets = []set{{"files", files, host}}
	} else if *hostJSON != "" {
		sets = withLentHost(sets, host)
	}
	if *fit {
		var files []string
		for _, s := range sets {
			files = append(files, s.files...)
		}
		if reflect.DeepEqual(host, memmodel.HostCosts{}) {
			host = memmodel.DefaultHostCosts() // a fit starts from the H200 hosts' costs
		}
		if err := fitHost(files, host, *fitPhases, *fitWithin, strings.Split(*fitKeep, ","), strings.Split(*fitAdd, ",")); err != nil {
			fmt.Fprintln(os.Stderr, "steptime:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(sets); err != nil {
		fmt.Fprintln(os.Stderr, "steptime:", err)
		os.Exit(1)
	}
}

func read(files []string, verbose bool) ([]measured.Timed, error) {
	var ws []measured.Timed
	for _, f := range files {
		w, skipped, err := measured.ReadTimed(f)
		if err != nil {
			return nil, err
		}
		for _, s := range skipped {
			if verbose {
				fmt.Printf("skipped %s\n", s)
			}
		}
		ws = append(ws, w...)
	}
	return ws, nil
}

func run(sets []set) error {
	var evs []measured.StepEval
	var all []measured.Timed
	for _, st := range sets {
		fmt.Printf("\n== %s\n", st.name)
		ws, err := read(st.files, true)
		if err != nil {
			return err
		}
		ev, err := measured.EvalStepTimeWith(ws, st.host)
		if err != nil {
			return err
		}
		for _, s := range ev.Skipped {
			fmt.Printf("skipped %s\n", s)
		}
		printRows(ev)
		summary(ev)
		alternatedReport(ws, ev, true)
		if len(sets) == 1 {
			kindReport(ev)
		}
		evs = append(evs, ev)
		all = append(all, ws...)
	}
	if len(evs) > 1 {
		fmt.Printf("\n== all sets together\n")
		ev := measured.Concat(evs...)
		summary(ev)
		// issue 14's ratio criterion where the host's noise is taken out
		alternatedReport(all, ev, false)
		kindReport(ev)
	}
	return nil
}

// printRows lists every workload and every technique pair of ev.
func printRows(ev measured.StepEval) {
	fmt.Printf("%-44s %-22s %9s %9s %8s %8s %8s\n", "workload", "file", "measured", "predicted", "err", "host", "gpu")
	for _, r := range ev.Rows {
		fmt.Printf("%-44s %-22s %8.1fms %8.1fms %+7.1f%% %6.1fms %6.1fms\n", r.Name, r.Source, 1e3*r.Measured, 1e3*r.Predicted, 100*r.Err, 1e3*r.HostS, 1e3*r.GPUS)
	}
	if len(ev.Pairs) == 0 {
		return
	}
	fmt.Printf("\n%-13s %-40s %-34s %8s %8s %8s\n", "technique", "variant", "baseline", "measured", "predicted", "err")
	for _, p := range ev.Pairs {
		fmt.Printf("%-13s %-40s %-34s %8.2f %8.2f %+7.1f%%\n", p.Kind, p.Num, p.Den, p.Measured, p.Predicted, 100*p.Err())
	}
	printCosts(ev)
}

// printCosts lists what each technique adds to its baseline's step
// (variant − baseline): measured, predicted, and how the prediction's
// host issue time and GPU busy time moved. A technique whose measured
// cost tracks the GPU's added work is GPU-bound; one that costs more
// than both moved is paying host work the walk does not count.
func printCosts(ev measured.StepEval) {
	rows := ev.RowsByName()
	fmt.Printf("\n%-13s %-40s %9s %9s %9s %9s\n", "technique", "variant − baseline", "measured", "predicted", "host", "gpu")
	for _, p := range ev.Pairs {
		v, okV := rows[p.Num]
		b, okB := rows[p.Den]
		if !okV || !okB {
			continue
		}
		fmt.Printf("%-13s %-40s %+7.1fms %+7.1fms %+7.1fms %+7.1fms\n", p.Kind, p.Num,
			1e3*(v.Measured-b.Measured), 1e3*(v.Predicted-b.Predicted), 1e3*(v.HostS-b.HostS), 1e3*(v.GPUS-b.GPUS))
	}
}

// summary prints the acceptance figures of ev.
func summary(ev measured.StepEval) {
	st, pt := measured.Summarize(ev.Errs()), measured.Summarize(ev.PairErrs())
	inBand := 0
	for _, r := range ev.Rows {
		if r.InBand {
			inBand++
		}
	}
	within := 0
	for _, e := range ev.PairErrs() {
		if math.Abs(e) <= 0.10 {
			within++
		}
	}
	fmt.Printf("step time: %d workloads, median |err| %.1f%% (target ≤10%%), max %.1f%% (≤25%%), under-estimates %.0f%%\n",
		st.N, 100*st.MedianAbs, 100*st.MaxAbs, 100*st.UnderRate)
	fmt.Printf("band: %d of %d measurements inside the predicted step-time band\n", inBand, len(ev.Rows))
	for _, r := range ev.Rows {
		if !r.InBand {
			fmt.Printf("  outside: %s %+.1f%%\n", r.Name, 100*r.Err)
		}
	}
	fmt.Printf("technique ratios: %d pairs, %d within 10%% (%.0f%%, target all), median |err| %.1f%%, max %.1f%%\n",
		pt.N, within, pct(within, pt.N), 100*pt.MedianAbs, 100*pt.MaxAbs)
	fmt.Printf("ordering (pairs differing by > %.0f%%): same model %d/%d (%.0f%%, target ≥95%%), any two of one file %d/%d (%.0f%%)\n",
		100*measured.OrderNoise, ev.Ordered, ev.Compared, pct(ev.Ordered, ev.Compared), ev.AllOrdered, ev.AllCompared, pct(ev.AllOrdered, ev.AllCompared))
	ties := 0
	for _, m := range ev.Misordered {
		bound := "GPU-bound"
		if m.HostBound {
			bound = "host-bound"
		}
		if m.Predicted >= 0.98 {
			ties++
		}
		fmt.Printf("  misordered: %s ran %.2fx faster than %s, planned %.2fx (%s)\n", m.A, m.Measured, m.B, m.Predicted, bound)
	}
	if len(ev.Misordered) > 0 {
		// a pair planned within 2% is a tie the plan cannot order
		// (host-bound steps of one host price), not a reversal
		fmt.Printf("  %d of the %d misordered pairs are planned within 2%% of each other\n", ties, len(ev.Misordered))
	}
	ratioReport(ev)
}

func pct(a, b int) float64 {
	if b == 0 {
		return 100
	}
	return 100 * float64(a) / float64(b)
}
