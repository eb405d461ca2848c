package exporter

import (
	"os"
	"regexp"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// The shipped Grafana dashboard and DaemonSet must only use metric names
// the collector exports, so a rename cannot silently blank a panel.
func TestDeployUsesRealMetricNames(t *testing.T) {
	c := NewCollector(nil, DefaultOptions(), "test", quiet(), time.Now)
	ch := make(chan *prometheus.Desc, 32)
	c.Describe(ch)
	close(ch)
	known := map[string]bool{}
	name := regexp.MustCompile(`fqName: "([a-z_]+)"`)
	for d := range ch {
		known[name.FindStringSubmatch(d.String())[1]] = true
	}
	for _, f := range []string{"../../deploy/grafana/vramkit-dashboard.json", "../../deploy/kubernetes/daemonset.yaml"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range regexp.MustCompile(`vramkit_[a-z_]+`).FindAllString(string(b), -1) {
			if !known[m] {
				t.Errorf("%s uses %s, which the exporter does not export", f, m)
			}
		}
	}
}
