module github.com/vramkit/vramkit

go 1.26.8
