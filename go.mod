module github.com/vramkit/vramkit

go 1.26.8

require github.com/google/pprof v0.0.0-20261105003125-4bf881d7fb0b
