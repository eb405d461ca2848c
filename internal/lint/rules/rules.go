// Package rules holds the checks of vramkit lint, one rule per file
// (vkNNN_name.go), each with its flagged and clean cases in
// testdata/vkNNN_*.py marked with `# want "regexp"`.
//
// Codes VK001–VK017 follow the candidate list M1–M17 of the design notes
// (VK016, hot-loop syncs, is a speed matter rather than memory and is not
// implemented); VK020 and up are vramkit's own. Codes are stable: a
// retired rule's code is never reused.
package rules

import "github.com/vramkit/vramkit/internal/lint"

// All returns every rule, in code order.
func All() []*lint.Rule {
	return []*lint.Rule{
		LossAccumulated,
		GraphAppended,
		EvalWithGrad,
		OOMRetryInExcept,
		ZeroGradNotNone,
		DeprecatedAMP,
		DataLoaderPinMemory,
		DataLoaderWorkers,
		CreatedThenMoved,
		RequireGradTypo,
		EmptyCacheInLoop,
		LoopTemporary,
		LoadWithoutMapLocation,
		DataParallel,
		RetainGraphInLoop,
		ConvBiasBeforeBatchNorm,
		AllocConf,
		CudnnBenchmarkVariableShapes,
	}
}
