package memmodel

import "encoding/json"

// ropeFactor reads a decoder's config.json rope_scaling (or rope_parameters)
// for how many times max_position_embeddings vLLM's rotary table covers:
// linear and dynamic scaling build factor × max_position_embeddings
// positions, YaRN factor × original_max_position_embeddings; llama3,
// longrope and unscaled embeddings keep max_position_embeddings (1).
func ropeFactor(data []byte, maxPos int) float64 {
	type scaling struct {
		Type     string  `json:"type"`
		RopeType string  `json:"rope_type"`
		Factor   float64 `json:"factor"`
		Original int     `json:"original_max_position_embeddings"`
	}
	var h struct {
		Scaling *scaling `json:"rope_scaling"`
		Params  *scaling `json:"rope_parameters"`
	}
	if json.Unmarshal(data, &h) != nil || maxPos <= 0 {
		return 0
	}
	s := h.Scaling
	if s == nil {
		s = h.Params
	}
	if s == nil || s.Factor <= 1 {
		return 0
	}
	kind := s.RopeType
	if kind == "" {
		kind = s.Type
	}
	switch kind {
	case "linear", "dynamic":
		return s.Factor
	case "yarn":
		if s.Original > 0 {
			return s.Factor * float64(s.Original) / float64(maxPos)
		}
		return s.Factor
	}
	return 0
}
