module github.com/locus-mc/locus

go 1.26
