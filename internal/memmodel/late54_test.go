package memmodel_test

import (
	"path/filepath"
	"testing"
)

// late54Dir is the fifty-fourth blind set (testdata/late54/README.md): step
// times of ConvNeXt, ViT, ResNet-50 and EfficientNet-B0 at shapes no set
// ran, captured after dev57's profiles (call 108) and evaluated with the
// models of e632319 (testdata/late54/RESULTS.md).
const late54Dir = "../../testdata/late54"

// TestStepTimeLate54: eight blind step times in two groups. At first
// sight: median 1.0%, max -17.9% (ConvNeXt-B b48 bf16, host-bound), all
// in band; the session-start models had median 2.2% on them.
func TestStepTimeLate54(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late54Dir, "timing", "results.jsonl"))
	// one configuration per model: no pairs to order
	checkStepEval(t, ev, 8, stepTargets{median: 0.011, max: 0.18, ratioMedian: 0, ratioMax: 0, order: 0})
}
