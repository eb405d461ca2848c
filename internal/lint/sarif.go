package lint

import (
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"strings"
)

// SARIF 2.1.0, the subset code-scanning UIs read: one run, the rules as
// reportingDescriptors, results with a physical location, and fixes as
// byte-range replacements.

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool     `json:"tool"`
	ColumnKind string        `json:"columnKind"`
	Results    []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifRule struct {
	ID                   string            `json:"id"`
	Name                 string            `json:"name"`
	ShortDescription     sarifText         `json:"shortDescription"`
	FullDescription      sarifText         `json:"fullDescription"`
	Help                 sarifText         `json:"help"`
	HelpURI              string            `json:"helpUri"`
	DefaultConfiguration map[string]string `json:"defaultConfiguration"`
}

type sarifResult struct {
	RuleID     string          `json:"ruleId"`
	RuleIndex  int             `json:"ruleIndex"`
	Level      string          `json:"level"`
	Message    sarifText       `json:"message"`
	Locations  []sarifLocation `json:"locations"`
	Fixes      []sarifFix      `json:"fixes,omitempty"`
	Properties map[string]any  `json:"properties,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

// sarifBytes is a region of a replacement: byte offsets into the file.
type sarifBytes struct {
	ByteOffset int `json:"byteOffset"`
	ByteLength int `json:"byteLength"`
}

type sarifFix struct {
	Description     sarifText           `json:"description"`
	ArtifactChanges []sarifArtifactEdit `json:"artifactChanges"`
}

type sarifArtifactEdit struct {
	ArtifactLocation sarifArtifact      `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifBytes `json:"deletedRegion"`
	InsertedContent *sarifText `json:"insertedContent,omitempty"`
}

func sarifLevel(s Severity) string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "note"
}

// sarifURI is a relative path with forward slashes (resolved against
// %SRCROOT%, the scan's root), or a file: URI for absolute paths.
func sarifURI(path string) sarifArtifact {
	if filepath.IsAbs(path) {
		u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
		return sarifArtifact{URI: u.String()}
	}
	p := strings.TrimPrefix(filepath.ToSlash(filepath.Clean(path)), "./")
	u := url.URL{Path: p}
	return sarifArtifact{URI: u.String(), URIBaseID: "%SRCROOT%"}
}

// WriteSARIF prints the findings as a SARIF 2.1.0 log. Notebook findings
// point at the line of the .ipynb JSON that holds the code (cell and line
// within the cell are in the result's properties).
func WriteSARIF(w io.Writer, diags []Diagnostic, rules []*Rule, version string) error {
	index := map[string]int{}
	driver := sarifDriver{Name: "vramkit", Version: version, InformationURI: "https://github.com/vramkit/vramkit", Rules: []sarifRule{}}
	for _, r := range append(append([]*Rule(nil), rules...), ParseError) {
		if _, dup := index[r.Code]; dup {
			continue
		}
		index[r.Code] = len(driver.Rules)
		driver.Rules = append(driver.Rules, sarifRule{
			ID: r.Code, Name: r.Name,
			ShortDescription:     sarifText{r.Summary},
			FullDescription:      sarifText{r.Doc},
			Help:                 sarifText{r.Doc},
			HelpURI:              r.URL(),
			DefaultConfiguration: map[string]string{"level": sarifLevel(r.Severity)},
		})
	}
	run := sarifRun{Tool: sarifTool{driver}, ColumnKind: "unicodeCodePoints", Results: []sarifResult{}}
	for _, d := range diags {
		msg := d.Message
		if d.Fix != "" {
			msg += ". Fix: " + d.Fix
		}
		region := sarifRegion{StartLine: d.Start.Line, StartColumn: d.Start.Col, EndLine: d.End.Line, EndColumn: d.End.Col}
		var props map[string]any
		if d.Start.Cell > 0 {
			region = sarifRegion{StartLine: max(d.Start.JSONLine, 1)}
			props = map[string]any{"cell": d.Start.Cell, "cellLine": d.Start.Line, "cellColumn": d.Start.Col}
		}
		res := sarifResult{
			RuleID: d.Code, RuleIndex: index[d.Code], Level: sarifLevel(d.Severity),
			Message:    sarifText{msg},
			Locations:  []sarifLocation{{sarifPhysical{sarifURI(d.Path), region}}},
			Properties: props,
		}
		if len(d.Edits) > 0 {
			change := sarifArtifactEdit{ArtifactLocation: sarifURI(d.Path)}
			for _, e := range d.Edits {
				rep := sarifReplacement{DeletedRegion: sarifBytes{ByteOffset: e.Start, ByteLength: e.End - e.Start}}
				if e.New != "" {
					rep.InsertedContent = &sarifText{e.New}
				}
				change.Replacements = append(change.Replacements, rep)
			}
			res.Fixes = []sarifFix{{Description: sarifText{d.Fix}, ArtifactChanges: []sarifArtifactEdit{change}}}
		}
		run.Results = append(run.Results, res)
	}
	log := sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}
