package memmodel

import (
	"strings"
	"testing"
)

// A spec file that encoding/json would read other than as written (a
// key given twice, a key in another case, a second value after the
// first, nothing at all) is refused in one line naming what is wrong,
// not planned with one of its keys silently dropped.
func TestParseSpecRefusesSilentlyLostKeys(t *testing.T) {
	for _, tc := range []struct{ spec, want string }{
		{``, "empty"},
		{"  \n", "empty"},
		{`null`, "null"},
		{`[]`, "JSON array"},
		{`{"model":"gpt2","batch":4} {"batch":64}`, "one JSON object per file"},
		{`{"model":"gpt2","batch":4} x`, "one JSON object per file"},
		{`{"model":"gpt2","batch":4,"batch":64}`, `"batch" is given twice`},
		{`{"model":"gpt2","parallel":{"gpus":2,"gpus":4}}`, `"parallel.gpus" is given twice`},
		{`{"model":"gpt2","batch":4,"Batch":64}`, `did you mean "batch"`},
		{`{"Model":"gpt2"}`, `did you mean "model"`},
		{`{"model":"gpt2","lora":{"Rank":8}}`, `did you mean "lora.rank"`},
		{`{"hf_config":{"model_type":"gpt2","n_layer":2,"n_layer":48}}`, `"hf_config.n_layer" is given twice`},
	} {
		_, err := ParseSpec(strings.NewReader(tc.spec))
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error %v, want one line with %q", tc.spec, err, tc.want)
		}
	}
	// what stays valid: a list's repeated values, hf_config's own keys
	// in any case, trailing white space
	for _, ok := range []string{
		`{"model":"gpt2","lora":{"rank":4,"targets":["c_attn","c_attn"]}}` + "\n\n",
		`{"hf_config":{"model_type":"gpt2","n_layer":2,"N_LAYER":3},"batch":2}`,
	} {
		if _, err := ParseSpec(strings.NewReader(ok)); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
}

// A syntax error is reported as one, not as text after the object.
func TestParseSpecSyntaxErrorNamed(t *testing.T) {
	_, err := ParseSpec(strings.NewReader(`{"model":"gpt2","batch":NaN}`))
	if err == nil || strings.Contains(err.Error(), "closing brace") || !strings.Contains(err.Error(), "invalid character") {
		t.Errorf("error %v, want the syntax error", err)
	}
}

// TestParseSpecByteOrderMark: a spec saved with a UTF-8 byte-order mark
// (Windows editors do) reads as the same spec.
func TestParseSpecByteOrderMark(t *testing.T) {
	s, err := ParseSpec(strings.NewReader("\xef\xbb\xbf{\"model\":\"gpt2\",\"batch\":2}"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Model == nil || *s.Model != "gpt2" || s.Batch != 2 {
		t.Errorf("read %+v", s)
	}
}
