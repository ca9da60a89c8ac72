package acemqtest

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"
)

// HarnessManagementEnv names the environment variable of the RabbitMQ
// management API (http://user:pass@host:port) Run uses, on a real broker,
// to give each scenario a virtual host of its own, deleted when it ends:
// the scenario's queues are then private, as on memory://. Without it the
// scenario shares the broker's default virtual host with every other test.
const HarnessManagementEnv = "ACEMQ_HARNESS_MANAGEMENT_URL"

// privateVhost creates a virtual host of its own for the scenario through
// the management API at mgmt, grants amqpURL's user every permission on it,
// deletes it when t ends, and returns amqpURL pointing at it.
func privateVhost(t *testing.T, mgmt, amqpURL string) string {
	t.Helper()
	u, err := url.Parse(amqpURL)
	if err != nil {
		t.Fatalf("acemqtest: cannot read %s: %v", HarnessAMQPURLEnv, err)
	}
	vhost := uniqueName("harness")
	perms := []byte(`{"configure":".*","write":".*","read":".*"}`)
	if err := manage(mgmt, http.MethodPut, "/api/vhosts/"+vhost, nil); err != nil {
		t.Fatalf("acemqtest: cannot create a virtual host for the scenario: %v", err)
	}
	t.Cleanup(func() { _ = manage(mgmt, http.MethodDelete, "/api/vhosts/"+vhost, nil) })
	if err := manage(mgmt, http.MethodPut, "/api/permissions/"+vhost+"/"+url.PathEscape(u.User.Username()), perms); err != nil {
		t.Fatalf("acemqtest: cannot grant %s the scenario's virtual host: %v", u.User.Username(), err)
	}
	u.Path, u.RawPath = "/"+vhost, ""
	return u.String()
}

// manage sends one request to the management API at base.
func manage(base, method, path string, body []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	u, err := url.Parse(base)
	if err != nil {
		return fmt.Errorf("acemqtest: cannot read %s: %w", HarnessManagementEnv, err)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.Scheme+"://"+u.Host+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	password, _ := u.User.Password()
	req.SetBasicAuth(u.User.Username(), password)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("acemqtest: %s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("acemqtest: %s %s: %s", method, path, resp.Status)
	}
	return nil
}
