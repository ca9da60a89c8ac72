// Package toml is the TOML codec for acemq: messages a person reads and edits,
// without YAML's Norway problem (an unquoted NO is a parse error in TOML, not a
// country that quietly became false).
//
//	payload ──json tags──▶ ordered table ──Encode──▶ TOML (application/toml) ──▶ broker
//	broker ──▶ CanDecode(content type) ──Decode──▶ table ──json tags──▶ *dst
//
// Field names come from the json tags generated types carry, so a TOML message
// and a JSON message of the same type agree on every name and every value's
// form (time.Time as an RFC 3339 string, []byte as base64, fields in declaration
// order). TOML is a table format: a payload that is not a struct or a map at
// the top level is refused as fatal before it goes out. Importing the package
// registers the codec as "toml" with acemq.RegisterCodec.
//
// Codec.Limits (acemq.DecodeLimits: 64 MiB, depth 100 counting inline
// tables, arrays and dotted key segments, a million values) bound a body
// before the parser, whose cost grows with the square of the depth, reads it;
// a generated record missing a required field is a fatal error.
//
// The codec does not answer for a message with no content type.
package toml
