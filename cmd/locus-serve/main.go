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
	logTo := flag.String("log", "", "append one line per request (status, bytes sent, path) to this file, to measure what a page load downloads")
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
	h := Handler(*dir)
	if *logTo != "" {
		f, err := os.OpenFile(*logTo, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			log.Fatalf("locus-serve: %v", err)
		}
		h = logRequests(h, f)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.Serve(ln))
}
