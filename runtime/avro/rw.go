package avro

import (
	"errors"
	"io"

	"github.com/acemq/acemq-gen/runtime/acemq"
	hamba "github.com/hamba/avro/v2"
)

// maxPooledWriter is the largest buffer a writer keeps when it goes back to
// the pool, so that one huge message does not pin its memory.
const maxPooledWriter = 64 << 10

// noFrame is the room Encode leaves for a frame, filled in by putFrame.
var noFrame [frameSize]byte

var (
	errTruncated = errors.New("the body ends before the record does")
	errTrailing  = errors.New("bytes are left over after the record")
	errNilDst    = errors.New("the destination is nil")
)

// write encodes payload after reserve zero bytes (room for a frame) into a
// pooled writer and returns a copy of the bytes: one allocation, as hamba's
// own Marshal makes.
func (c *Codec) write(payload any, reserve int) ([]byte, error) {
	a := c.apiFor(payload)
	w, _ := a.writers.Get().(*hamba.Writer)
	if w == nil {
		w = hamba.NewWriter(nil, 512, hamba.WithWriterConfig(a.api))
	}
	defer a.putWriter(w)
	w.Reset(nil)
	_, _ = w.Write(noFrame[:reserve]) // never fails: Write appends
	w.WriteVal(c.schema, payload)
	if w.Error != nil {
		return nil, acemq.Fatalf("acemq: a %T cannot be written with Avro schema %s: %w", payload, fullName(c.schema), w.Error)
	}
	return append([]byte(nil), w.Buffer()...), nil
}

func (a *codecAPI) putWriter(w *hamba.Writer) {
	w.Error = nil
	if cap(w.Buffer()) <= maxPooledWriter {
		a.writers.Put(w)
	}
}

// read decodes exactly one value from body with a pooled reader. Unlike
// hamba's Unmarshal it refuses a body that ends early (Unmarshal reads the
// missing bytes as zeros) or runs on past the value (another mode's or
// another schema's bytes).
func (c *Codec) read(p plan, body []byte, dst any) error {
	if dst == nil {
		return errNilDst
	}
	if err := guard(p.guard, body); err != nil {
		return err
	}
	a := c.apiFor(dst)
	r, _ := a.readers.Get().(*hamba.Reader)
	if r == nil {
		r = hamba.NewReader(nil, 0, hamba.WithReaderConfig(a.api))
	}
	r.Reset(body)
	r.ReadVal(p.decode, dst)
	err := readResult(r)
	a.putReader(r) // not deferred: a reader a panic interrupted is not reused
	return err
}

// readResult is the outcome of a ReadVal on r: its error, or errTrailing
// when bytes remain.
func readResult(r *hamba.Reader) error {
	switch {
	case r.Error == nil:
		if r.Peek(); r.Error == nil {
			return errTrailing
		}
		return nil
	case errors.Is(r.Error, io.EOF) || errors.Is(r.Error, io.ErrUnexpectedEOF):
		return errTruncated
	}
	return r.Error
}

func (a *codecAPI) putReader(r *hamba.Reader) {
	r.Reset(nil)
	r.Error = nil
	a.readers.Put(r)
}
