// Package batchfail lets the runtime's packages report a failed batch with
// acemq's own *BatchPublishFailedError, built by acemq's one function,
// without acemq exporting a constructor for it.
package batchfail

// New returns acemq's *BatchPublishFailedError for the failures in errs
// (one entry per payload, nil for a success), or nil when none failed.
// Package acemq sets it when it is initialised, so any package importing
// acemq may call it; it is safe for concurrent use.
var New func(errs []error) error
