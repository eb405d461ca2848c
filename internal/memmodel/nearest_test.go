package memmodel

import "testing"

// TestUnsupportedTypesUnregistered: a model_type the catalog now plans must
// leave the table of nearest neighbours, where it would be dead (a
// registered type is parsed before the table is read) and misleading to
// whoever reads it (phi -> phi3 outlived the phi family by a session).
func TestUnsupportedTypesUnregistered(t *testing.T) {
	for typ, alt := range unsupportedTypes {
		if f, ok := registry.modelType[typ]; ok {
			t.Errorf("model_type %q is registered by family %s but still listed as unsupported (nearest: %s)", typ, f.Name, alt)
		}
	}
}
