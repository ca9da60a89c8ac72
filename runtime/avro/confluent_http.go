package avro

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// maxResponseBytes bounds what one registry response may carry.
const maxResponseBytes = 8 << 20

// ConfluentError is a Confluent Schema Registry API error response. A 404
// also matches ErrSchemaNotFound.
type ConfluentError struct {
	// Method and Path name the request.
	Method, Path string
	// StatusCode is the HTTP status.
	StatusCode int
	// ErrorCode and Message are the API's error_code and message.
	ErrorCode int
	Message   string
}

// Error reads "acemq: schema registry METHOD PATH: STATUS MESSAGE (error CODE)".
func (e *ConfluentError) Error() string {
	return fmt.Sprintf("acemq: schema registry %s %s: %d %s (error %d)", e.Method, e.Path, e.StatusCode, e.Message, e.ErrorCode)
}

// Is makes a 404 match ErrSchemaNotFound.
func (e *ConfluentError) Is(target error) bool {
	return target == ErrSchemaNotFound && e.StatusCode == http.StatusNotFound
}

// do sends body (when not nil) as JSON and decodes a 2xx response into out.
func (r *ConfluentRegistry) do(ctx context.Context, method, path string, body, out any) error {
	req, err := r.request(ctx, method, path, body)
	if err != nil {
		return err
	}
	status, data, err := r.roundTrip(req)
	if err != nil {
		return fmt.Errorf("acemq: schema registry %s %s: %w", method, path, err)
	}
	if status/100 != 2 {
		return apiError(method, path, status, data)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("acemq: schema registry %s %s: the response is not the API's JSON: %w", method, path, err)
	}
	return nil
}

// roundTrip sends req and returns the status and the (bounded) body.
func (r *ConfluentRegistry) roundTrip(req *http.Request) (int, []byte, error) {
	resp, err := r.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	return resp.StatusCode, data, err
}

func (r *ConfluentRegistry) request(ctx context.Context, method, path string, body any) (*http.Request, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body) // a schemaPayload always marshals
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, r.base+path, rd)
	if err != nil {
		return nil, fmt.Errorf("acemq: schema registry %s %s: %w", method, path, err)
	}
	req.Header.Set("Accept", ConfluentContentType)
	if body != nil {
		req.Header.Set("Content-Type", ConfluentContentType)
	}
	if r.auth {
		req.SetBasicAuth(r.user, r.pass)
	}
	return req, nil
}

func apiError(method, path string, status int, data []byte) error {
	e := &ConfluentError{Method: method, Path: path, StatusCode: status}
	var body struct {
		ErrorCode int    `json:"error_code"`
		Message   string `json:"message"`
	}
	if json.Unmarshal(data, &body) == nil && body.Message != "" {
		e.ErrorCode, e.Message = body.ErrorCode, body.Message
	} else {
		e.Message = http.StatusText(status)
	}
	return e
}
