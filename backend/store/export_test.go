package store

// CheckCounts is checkCounts for the external tests (counts_crawl_test.go).
var CheckCounts = checkCounts
