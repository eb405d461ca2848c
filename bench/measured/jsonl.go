package measured

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// DecodeJSONL decodes every line of r (a JSON-lines file named name in
// its errors) as a T.
func DecodeJSONL[T any](r io.Reader, name string) ([]T, error) {
	var out []T
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		out = append(out, v)
	}
	return out, sc.Err()
}

// ReadJSONL is DecodeJSONL of the file at path.
func ReadJSONL[T any](path string) ([]T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return DecodeJSONL[T](f, path)
}
