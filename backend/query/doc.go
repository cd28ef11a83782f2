// Package query is Mundaneum's query language: it reads what a user types into a syntax
// tree (words, phrases, prefixes, approximate words, NEAR groups, fields, filters, regular
// expressions, AND/OR/NOT), validating and normalising every filter's value, and prints a
// tree back as a query. Any input is a legal query: what cannot be read as an operator is
// read as words, with a note. It is a leaf: it knows no SQL and imports no project package;
// backend/search compiles its trees against the index.
package query
