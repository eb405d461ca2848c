package exporter

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/prometheus/exporter-toolkit/web"
)

// DefaultListen is localhost only: an exporter that reveals process names
// and users should be opened to the network on purpose (--listen :9947),
// ideally with a web config that enables TLS and basic auth. 9947 is not
// in Prometheus's port registry; pick your own if it clashes.
const DefaultListen = "127.0.0.1:9947"

// Registry returns a registry with c plus the Go runtime and process
// collectors every exporter carries.
func Registry(c prometheus.Collector) *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(c, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}

// Handler serves /metrics from reg and a landing page at /.
func Handler(reg *prometheus.Registry, version string) (http.Handler, error) {
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.InstrumentMetricHandler(reg, promhttp.HandlerFor(reg, promhttp.HandlerOpts{
		ErrorHandling:       promhttp.ContinueOnError,
		MaxRequestsInFlight: 8,
		Timeout:             10 * time.Second,
		Registry:            reg,
	})))
	landing, err := web.NewLandingPage(web.LandingConfig{
		Name:        "vramkit exporter",
		Description: "GPU memory per GPU and per process, in bytes",
		Version:     version,
		Links:       []web.LandingLinks{{Address: "/metrics", Text: "Metrics"}},
	})
	if err != nil {
		return nil, err
	}
	mux.Handle("/", landing)
	return mux, nil
}

// Serve serves h on the listeners until ctx is done. webConfig is an
// exporter-toolkit web configuration file ("" for plain HTTP without auth):
// TLS, client certificates, bcrypt basic-auth users, rate limits.
func Serve(ctx context.Context, ls []net.Listener, h http.Handler, webConfig string, log *slog.Logger) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	systemd := false
	var addrs []string
	for _, l := range ls {
		addrs = append(addrs, l.Addr().String())
	}
	flags := &web.FlagConfig{WebListenAddresses: &addrs, WebSystemdSocket: &systemd, WebConfigFile: &webConfig}
	errc := make(chan error, 1)
	go func() { errc <- web.ServeMultiple(ls, srv, flags, log) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		err := srv.Shutdown(sctx)
		if e := <-errc; e != nil && !errors.Is(e, http.ErrServerClosed) {
			return e
		}
		return err
	}
}

// Listen opens TCP listeners for addrs, closing any already opened if one
// fails.
func Listen(addrs []string) ([]net.Listener, error) {
	var ls []net.Listener
	for _, a := range addrs {
		l, err := net.Listen("tcp", a)
		if err != nil {
			for _, x := range ls {
				x.Close()
			}
			return nil, err
		}
		ls = append(ls, l)
	}
	return ls, nil
}
