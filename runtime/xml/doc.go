// Package xml is the XML codec for acemq, read and written the way the AceMQ
// family's Java (Jackson) and Go (encoding/xml) libraries do.
//
//	payload ──json form──▶ ordered tree ──names by type──▶ XML (application/xml) ──▶ broker
//	broker ──▶ CanDecode(content type) ──Decode──▶ elements ──JSON form, by dst's type──▶ *dst
//	                                          (not XML, or not dst's shape → acemq.Fatal)
//
// Encoding writes what Go's xml.Marshal writes for the same names: no
// declaration, no indentation, the root element named by the payload's
// XMLName field or else its Go type's name (<Order> for an Order, as Jackson
// names a POJO's root), one child element per field and one element per list
// item (Go's repeated siblings: <lines>a</lines><lines>b</lines>). An element
// is named by the field's xml tag, else its json tag, else its Go name, so the
// family's types, which carry json tags, and types with xml tags are named the
// same way; an xml tag's omitempty is honoured, its other options (attr,
// chardata, a>b paths) are not. Values are written in their JSON form —
// encoding/json with json tags, omitempty and MarshalJSON, then each scalar as
// text — so a decimal, a date, a duration of a unit or []byte (base64) reads the
// same in XML as in JSON. A payload with no root name (a map, a slice, an
// anonymous struct), nil, or a list inside a list is refused as fatal.
//
// Decoding reads one root element whose name is not checked, and fills dst
// through its JSON form: XML has no types, so each element's text becomes what
// the Go type it fills wants ("4250" a number for an int64, a string for a
// string; empty text for a number, boolean or time leaves the zero value), then
// encoding/json reads it, with UnmarshalJSON and json tags. A list field reads
// both shapes the family writes: Go's repeated siblings and Jackson's wrapper
// around them (<lines><lines>a</lines><lines>b</lines></lines>, as Jackson
// writes a POJO's List). An empty wrapper (<lines/>) is an empty list, so a
// list of exactly one empty item written by Go reads back empty; a wrapper is
// not unwrapped when the item type has a field of the list's own name. A
// *map[string]any or *any receives strings, lists (repeated or wrapped names)
// and maps. Attributes, comments and namespaces are ignored.
//
// Decoding is strict where a lenient reader would lose data silently: text
// where a record's elements belong, an element repeated where its field
// holds one value, and (for a generated record) a required field that is
// absent are fatal errors. Codec.Limits bound a body before the parser
// allocates (acemq.DecodeLimits: 64 MiB, depth 100; elements and attributes
// at most DefaultMaxElements, 100,000).
//
// Importing the package registers the codec as "xml" with
// acemq.RegisterCodec. The codec does not answer for a message with no content
// type: JSON is the default format and gets that benefit of the doubt.
package xml
