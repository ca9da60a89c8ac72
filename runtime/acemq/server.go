package acemq

import (
	"errors"
	"io"
)

// ErrNotImplemented matches (errors.Is) the error of a generated handler
// default (the Unimplemented<Set> types of a generated package): the message
// it rejects, or the RPC call it fails, names the message's kind and name,
// "acemq: event OrderPlaced is not implemented".
var ErrNotImplemented = errors.New("acemq: not implemented")

// Server is what a generated package's Subscribe or Serve started (consumers
// and RPC responders), and what acemqimpl.StartServer returns: Close stops it all.
// Close is safe to call once from any goroutine; the zero Server holds
// nothing.
type Server struct {
	running []io.Closer
}

// Close stops every consumer and responder the Server started, in the order
// they started, and returns their errors joined.
func (s *Server) Close() error {
	var err error
	for _, c := range s.running {
		err = errors.Join(err, c.Close())
	}
	return err
}
