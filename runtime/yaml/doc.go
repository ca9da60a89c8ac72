// Package yaml is the YAML codec for acemq: messages a person reads and edits.
//
//	payload ──Encode──▶ block-style YAML (application/yaml) ──▶ broker
//	broker ──▶ CanDecode(content type) ──Decode──▶ *dst   (malformed → acemq.Fatal)
//
// Field names come from the json tags generated types carry (a yaml tag, where
// present, wins), so a YAML message and a JSON message of the same type agree
// on every name. Importing the package registers the codec as "yaml" with
// acemq.RegisterCodec.
//
// The parser (github.com/goccy/go-yaml) reads YAML 1.2, so an unquoted NO is
// the string "NO", not YAML 1.1's boolean false.
//
// A message is one document: a second document, a key written twice, or (for
// a generated record) a required field that is absent is a fatal error.
// Codec.Limits (acemq.DecodeLimits: 64 MiB, depth 100; values at most
// DefaultMaxElements, 50,000, aliases counted as expanded) bound a body by a
// byte scan and a token scan before the parser, whose cost grows with the
// square of the depth, builds its tree.
//
// The codec does not answer for a message with no content type: JSON is the
// default format and gets that benefit of the doubt; YAML would be recording
// traffic under a format nobody sent.
package yaml
