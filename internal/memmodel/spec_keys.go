package memmodel

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// checkSpecDoc refuses what encoding/json accepts in a spec file without
// a word but the planner would then read other than as written: an
// empty file or a bare null (no spec at all), a second JSON value after
// the first (ignored), a key given twice (the last one silently wins),
// and a key spelt in another case ("Batch" read as "batch", and beside
// "batch" one of the two silently lost).
func checkSpecDoc(data []byte) error {
	trimmed := bytes.TrimSpace(data)
	switch {
	case len(trimmed) == 0:
		return errors.New("the file is empty: want a JSON object such as {\"model\": \"gpt2\", \"batch\": 8}")
	case string(trimmed) == "null":
		return errors.New("the file holds null: want a JSON object such as {\"model\": \"gpt2\", \"batch\": 8}")
	}
	// a syntax error is left for the decode that follows to report
	dec := json.NewDecoder(bytes.NewReader(data))
	var first json.RawMessage
	if err := dec.Decode(&first); err != nil {
		return nil
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("more after the spec's closing brace: one JSON object per file")
	}
	return walkSpecValue(json.NewDecoder(bytes.NewReader(first)), reflect.TypeFor[Spec](), "")
}

// walkSpecValue reads one JSON value from dec, checking the keys of each
// object it holds: no key twice, and where t is a struct, each key
// spelt exactly as its field's json tag. path names the value in errors.
func walkSpecValue(dec *json.Decoder, t reflect.Type, path string) error {
	tok, err := dec.Token()
	if err != nil {
		return nil
	}
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch tok {
	case json.Delim('{'):
		fields := specFields(t)
		seen := map[string]bool{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil
			}
			k, _ := kt.(string)
			name := path + k
			if seen[k] {
				return fmt.Errorf("key %q is given twice: JSON keeps only the last, so say it once", name)
			}
			seen[k] = true
			var ft reflect.Type
			if fields != nil {
				f, ok := fields[k]
				if !ok {
					for tag := range fields {
						if strings.EqualFold(tag, k) {
							return fmt.Errorf("unknown field %q (keys are lower case: did you mean %q?)", name, path+tag)
						}
					}
				}
				ft = f
			}
			if err := walkSpecValue(dec, ft, name+"."); err != nil {
				return err
			}
		}
		_, err = dec.Token()
		return err
	case json.Delim('['):
		var et reflect.Type
		if t != nil && t.Kind() == reflect.Slice {
			et = t.Elem()
		}
		for i := 0; dec.More(); i++ {
			if err := walkSpecValue(dec, et, fmt.Sprintf("%s[%d].", strings.TrimSuffix(path, "."), i)); err != nil {
				return err
			}
		}
		_, err = dec.Token()
		return err
	}
	return nil
}

// specFields maps the json tag names of struct t to their field types;
// nil for anything else (a raw hf_config, whose keys are the config's).
func specFields(t reflect.Type) map[string]reflect.Type {
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	m := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" && f.Anonymous {
			// an embedded struct's keys are the spec's own (Decoding)
			for k, v := range specFields(f.Type) {
				m[k] = v
			}
			continue
		}
		if name == "" || name == "-" {
			continue
		}
		m[name] = f.Type
	}
	return m
}
