package memmodel

import (
	"encoding/json"
	"fmt"
)

// Helpers the families' FromHF parsers share. Each family declares the
// config.json keys it reads next to its builder (family_*.go).

// decodeHF reads the keys v declares from a config.json.
func decodeHF(data []byte, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("config.json: %w", err)
	}
	return nil
}

// hfKey is a required config.json integer and its value.
type hfKey struct {
	name  string
	value int
}

// needPositive fails on the first key that is missing or not positive.
func needPositive(keys ...hfKey) error {
	for _, k := range keys {
		if k.value <= 0 {
			return fmt.Errorf("config.json: %s missing or not positive", k.name)
		}
	}
	return nil
}

func orF64(p *float64, d float64) float64 {
	if p != nil {
		return *p
	}
	return d
}

func orBool(p *bool, d bool) bool {
	if p != nil {
		return *p
	}
	return d
}
