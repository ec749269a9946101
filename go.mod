module github.com/locus-mc/locus

go 1.26

require (
	github.com/hack-pad/go-indexeddb v0.3.2
	github.com/hack-pad/hackpadfs v0.2.4
)

require github.com/hack-pad/safejs v0.1.0 // indirect
