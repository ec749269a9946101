module github.com/locus-mc/locus

go 1.26

require (
	github.com/hack-pad/go-indexeddb v0.3.2
	github.com/hack-pad/hackpadfs v0.2.4
	github.com/syumai/workers v0.32.0
	github.com/tetratelabs/wazero v1.12.0
	github.com/vugu/vjson v0.0.0-20200505061711-f9cbed27d3d9
	github.com/vugu/vugu v0.5.1
	golang.org/x/sys v0.44.0
)

require (
	github.com/hack-pad/safejs v0.1.0 // indirect
	github.com/urfave/cli/v3 v3.3.3 // indirect
	github.com/vugu/html v0.0.0-20190914200101-c62dc20b8289 // indirect
	github.com/vugu/xxhash v0.0.0-20191111030615-ed24d0179019 // indirect
)

tool (
	github.com/syumai/workers/cmd/workers-assets-gen
	github.com/vugu/vugu/cmd/vugu
)
