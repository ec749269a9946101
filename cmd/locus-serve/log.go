// This file logs requests for measuring page loads.

package main

import (
	"fmt"
	"io"
	"net/http"
	"sync"
)

// logRequests writes "status bytes path" for each request to w, bytes being
// the body bytes sent (compressed, when gzip was sent).
func logRequests(h http.Handler, w io.Writer) http.Handler {
	var mu sync.Mutex
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		cw := &countingWriter{ResponseWriter: rw, status: http.StatusOK}
		h.ServeHTTP(cw, r)
		mu.Lock()
		fmt.Fprintf(w, "%d %d %s\n", cw.status, cw.n, r.URL.Path)
		mu.Unlock()
	})
}

type countingWriter struct {
	http.ResponseWriter
	status int
	n      int64
}

func (c *countingWriter) WriteHeader(status int) {
	c.status = status
	c.ResponseWriter.WriteHeader(status)
}

func (c *countingWriter) Write(b []byte) (int, error) {
	n, err := c.ResponseWriter.Write(b)
	c.n += int64(n)
	return n, err
}
