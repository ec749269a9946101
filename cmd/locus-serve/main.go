// Command locus-serve serves the Locus web app (the public/ folder) over HTTP
// for local use, with the MIME types the app needs and precompressed files.
//
//	locus-serve [-addr localhost:8080] [-dir public]
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"time"
)

func main() {
	addr := flag.String("addr", "localhost:8080", "address to listen on")
	dir := flag.String("dir", "public", "folder to serve")
	flag.Parse()
	if _, err := os.Stat(*dir + "/index.html"); err != nil {
		log.Fatalf("locus-serve: %s has no index.html; build the app first (scripts/web-build.sh)", *dir)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatalf("locus-serve: %v", err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	fmt.Printf("Locus is at http://localhost:%s/ (serving %s; Ctrl-C stops)\n", port, *dir)
	srv := &http.Server{Handler: Handler(*dir), ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.Serve(ln))
}
