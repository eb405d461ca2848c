// Package html renders vramkit's self-contained HTML report: one file with
// its CSS, JavaScript and data inline, which makes no network request and
// opens from file://, so it can be a CI artifact or an e-mail attachment.
// The plots are drawn on canvas by the page's own small script
// (assets/report.js); the Go side aggregates and downsamples so the page
// stays small and quick for million-event traces.
package html

import (
	"embed"
	"encoding/json"
	"html/template"
	"io"
)

//go:embed assets/report.html.tmpl assets/report.css assets/report.js
var assets embed.FS

// page holds what the template fills in. The CSS, script and data are
// trusted here: they come from this package's embedded files and from
// json.Marshal, which escapes <, > and & so no "</script>" can end the
// data block early.
type page struct {
	Title  string
	CSS    template.CSS
	JS     template.JS
	Data   template.JS
	Source string
}

// Render writes the report page for d to w.
func Render(w io.Writer, d *Data) error {
	data, err := json.Marshal(d)
	if err != nil {
		return err
	}
	return renderPage(w, d.Title, d.Source, data)
}

func renderPage(w io.Writer, title, source string, data []byte) error {
	t, err := template.ParseFS(assets, "assets/report.html.tmpl")
	if err != nil {
		return err
	}
	css, err := assets.ReadFile("assets/report.css")
	if err != nil {
		return err
	}
	js, err := assets.ReadFile("assets/report.js")
	if err != nil {
		return err
	}
	return t.Execute(w, page{Title: title, Source: source, CSS: template.CSS(css), JS: template.JS(js), Data: template.JS(data)})
}

// RenderSweep writes a page holding only a plan --sweep curve.
func RenderSweep(w io.Writer, s *Sweep) error {
	return Render(w, &Data{Title: "vramkit plan — " + s.Title, Frames: []Frame{}, Stacks: [][]int{}, Sweep: s})
}
