package memmodel_test

import "testing"

// TestDev55: dev55's snapshots (testdata/dev55/README.md): late50's two rows
// dev54's first rules left off (ResNet-50 b48 fp16 +6.39%, ResNet-34 b384
// bf16 -2.82%), ResNet-50 fp16 b80 (between the traced 64 and 96) and
// ResNet-34 bf16 b256. With the batch thresholds by conv kind, the
// downsamples' partials by shape and the fp16 stem's padded weight
// gradient read off them: +0.42%, +0.64%, -0.82% and +1.97% reserved
// (ResNet-34 b256's 128→256 3×3/2 keeps 2.9 MiB of partials, the rule 7).
func TestDev55(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev55", 4, nil,
		blindLimits{resvMedian: 0.0075, resvMax: 0.0200, allocMax: 0.0004, under: 1, farUnder: 0}, "dev55")
}
