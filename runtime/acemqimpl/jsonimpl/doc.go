// Package jsonimpl holds the primitives of the JSON codecs acemq-gen
// generates: generated AppendJSON methods write a record field by field
// through a Writer, and generated UnmarshalAcemqJSON methods read one through
// a Reader, without reflection. Generated code is typed glue; the policy is
// here.
//
// The contract of both halves is encoding/json's: a Writer writes byte for
// byte what json.Marshal writes for the same value (HTML-safe string
// escaping, encoding/json's float format, base64 bytes, RFC 3339 times, the
// contract's JSON forms through acemqimpl.JSONForm), and Decode accepts
// exactly what json.Unmarshal accepts, with the same result. Decode reads the
// canonical shape itself — a zero destination; keys spelled as the contract
// spells them, each at most once, without escapes; values of the field's JSON
// type — and hands anything else (another key's case, an unknown or repeated
// key, a type mismatch, an error) to json.Unmarshal, the reference, from the
// start: an unusual body costs a second read, never a different answer.
//
// A field of a bound Go type goes to encoding/json whole. One difference is
// left: a bound type whose MarshalJSON has a pointer receiver, inside a
// generated record that sits in an array, is written through that method by
// encoding/json (an array's elements are addressable) and by its value here.
//
// Applications do not use this package; its API follows the generator.
package jsonimpl
