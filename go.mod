module github.com/locus-mc/locus

go 1.26

require (
	github.com/hack-pad/go-indexeddb v0.3.2 // indirect
	github.com/hack-pad/hackpadfs v0.2.4 // indirect
)
