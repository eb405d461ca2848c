package memmodel

// AdamW 8-bit (bitsandbytes): both moments quantised to one byte per
// element with a float32 absmax per 256-element block each; parameters under
// 4096 elements keep float32 state (bitsandbytes' min_8bit_size). Written
// from the source; testdata/dev6 holds two captures of it.

func init() {
	registerOptimizer(&Optimizer{
		Name: "adamw-8bit",
		State: func(numel int64, _ DType) []StateTensor {
			if numel >= 4096 {
				return []StateTensor{{Name: "state1", PerElem: 1}, {Name: "state2", PerElem: 1}, {Name: "absmax", PerElem: 8.0 / 256}}
			}
			return []StateTensor{{Name: "state1", PerElem: 4}, {Name: "state2", PerElem: 4}}
		},
		Traffic: 28,
		Formula: true,
		Source:  "the 8-bit optimizer's state layout (bitsandbytes AdamW8bit: uint8 moments, float32 absmax per 256 values, shared code maps) is modelled from bitsandbytes' source and checked on two development captures on an H200 (peak allocated within 0.25%), with no held-out capture yet",
	})
}
