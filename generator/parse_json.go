package generator

import (
	"bytes"
	"encoding/json"
	"errors"
	"unicode/utf8"
)

// strictJSON reports, at its position, where an .avsc file is not JSON
// although the YAML parser that reads it accepted it: a trailing comma, a
// comment, an unquoted or single-quoted string.
func (y *yamlDoc) strictJSON(data []byte) {
	if json.Valid(data) {
		return
	}
	var v any
	var se *json.SyntaxError
	if !errors.As(json.Unmarshal(data, &v), &se) {
		return
	}
	at := min(max(int(se.Offset)-1, 0), len(data))
	before := bytes.TrimRight(data[:at], " \t\r\n")
	if at < len(data) && (data[at] == '}' || data[at] == ']') && bytes.HasSuffix(before, []byte(",")) {
		y.d.errorf(y.offsetPos(data, len(before)-1), "invalid JSON: a comma before %q (JSON has no trailing commas)", data[at])
		return
	}
	y.d.errorf(y.offsetPos(data, at), "invalid JSON: %s", se.Error())
}

// offsetPos is the position of the byte at off in data, counting columns in
// runes as the YAML parser does.
func (y *yamlDoc) offsetPos(data []byte, off int) Pos {
	line := bytes.Count(data[:off], []byte("\n")) + 1
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	return y.clamp(Pos{File: y.path, Line: line, Col: utf8.RuneCount(data[start:off]) + 1})
}
