package measured

import (
	"encoding/json"
	"os"
	"testing"
)

func TestZZDumpSpec(t *testing.T) {
	f, name := os.Getenv("ZZ_FILE"), os.Getenv("ZZ_ROW")
	if f == "" {
		t.Skip()
	}
	rows, err := ReadGTRows(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Name == name {
			s, why := GTSpec(r)
			if why != "" {
				t.Fatal(why)
			}
			b, _ := json.Marshal(s)
			os.WriteFile("/tmp/zzspec.json", b, 0o644)
		}
	}
}
