// Package testenv holds what the project's own tests share about the
// environment scripts/test.sh prepares (services, npm packages). It is not
// for users: their test helpers are in runtime/acemqtest.
//
//	scripts/test.sh ──env vars──▶ testenv ──path or skip──▶ generator, cmd tests
package testenv
