package memq

import (
	"testing"
)

// connect opens a connection to a broker private to the test.
func connect(t *testing.T) *Conn {
	t.Helper()
	c := New(t.Name()).Connect()
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func mustDeclareQueue(t *testing.T, c *Conn, name string, args map[string]any) {
	t.Helper()
	if err := c.DeclareQueue(name, QueueSpec{Durable: true, Args: args}); err != nil {
		t.Fatal(err)
	}
}

func mustPublish(t *testing.T, c *Conn, exchange, key, body string) {
	t.Helper()
	if _, err := c.Publish(exchange, key, Message{Body: []byte(body), MessageID: body}); err != nil {
		t.Fatal(err)
	}
}
