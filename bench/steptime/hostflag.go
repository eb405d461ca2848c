package main

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// hostCosts is the -host flag's costs: JSON (or @FILE holding JSON)
// unmarshalled over memmodel.DefaultHostCosts; without the flag, zero:
// each workload's plan takes the median lent host of its GPU's machines
// (memmodel.LentHostCosts), as a plan does.
func hostCosts(arg string) (memmodel.HostCosts, error) {
	if arg == "" {
		return memmodel.HostCosts{}, nil
	}
	host := memmodel.DefaultHostCosts()
	raw := []byte(arg)
	if path, ok := strings.CutPrefix(arg, "@"); ok {
		var err error
		if raw, err = os.ReadFile(path); err != nil {
			return host, err
		}
	}
	if err := json.Unmarshal(raw, &host); err != nil {
		return host, err
	}
	return host, nil
}

// withLentHost gives host to the sets timed on lent machines (those whose
// costs are zero: each plan's GPU's lent host), so that -host without
// files evaluates the costs on every lent set; the calibration host's and
// the older host's sets keep theirs.
func withLentHost(sets []set, host memmodel.HostCosts) []set {
	out := make([]set, len(sets))
	for i, s := range sets {
		if reflect.DeepEqual(s.host, memmodel.HostCosts{}) {
			s.host = host
		}
		out[i] = s
	}
	return out
}
