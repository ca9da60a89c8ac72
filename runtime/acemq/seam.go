package acemq

import "fmt"

// transportAs returns c's transport as the optional seam S (driver.Holder,
// driver.QueueChecker, ...), or an error saying the transport cannot do what
// S does: "acemq: a <transport type> cannot <cannot>".
func transportAs[S any](c *Conn, cannot string) (S, error) {
	s, ok := c.transport.(S)
	if !ok {
		return s, fmt.Errorf("acemq: a %T cannot %s", c.transport, cannot)
	}
	return s, nil
}

// openTransportAs is transportAs for a call that needs c open: ErrClosed
// once c is closed.
func openTransportAs[S any](c *Conn, cannot string) (S, error) {
	s, err := transportAs[S](c, cannot)
	if err == nil && c.isClosed() {
		return s, ErrClosed
	}
	return s, err
}
