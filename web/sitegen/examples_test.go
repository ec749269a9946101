package main

import "testing"

func TestDescribe(t *testing.T) {
	src := "-- Peterson's algorithm.\n--\n-- Two processes\n-- take turns.\n\nvar x: boolean;\n-- not part of it\n"
	got := describe("peterson.m", src)
	want := Example{File: "peterson.m", Title: "Peterson's algorithm", Description: "Two processes take turns."}
	if got != want {
		t.Errorf("describe = %+v, want %+v", got, want)
	}
	if got := describe("bare.m", "var x: boolean;"); got.Title != "bare" || got.Description != "" {
		t.Errorf("describe(no comment) = %+v", got)
	}
}
