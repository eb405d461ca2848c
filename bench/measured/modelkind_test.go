package measured

import (
	"testing"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// TestModelKind: a timed row's kind of model is the plan's kind= band
// class.
func TestModelKind(t *testing.T) {
	for model, want := range map[string]string{"resnet50": "cnn", "bert-base": "encoder", "gpt2": "decoder", "vit-b16": "vision-transformer"} {
		s := memmodel.DefaultSpec()
		m := model
		s.Model = &m
		if got := modelKind(s); got != want {
			t.Errorf("%s: kind %q, want %q", model, got, want)
		}
	}
	s := memmodel.DefaultSpec()
	bad := "no-such-model"
	s.Model = &bad
	if got := modelKind(s); got != "" {
		t.Errorf("unknown model: kind %q, want none", got)
	}
}
