package main

// testCrash, set only in binaries built with the locustestcrash tag (see
// crash_test_hook.go), crashes a check on purpose so that the tests can see
// the supervisor turn every kind of crash into an error verdict.
var testCrash func()
