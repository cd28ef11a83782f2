// The browser extension is TypeScript, not Go: a module of its own keeps this directory
// (and Go files some npm packages ship in node_modules) out of the main module's ./...
module mundaneum/extension

go 1.26
