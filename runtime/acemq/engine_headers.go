package acemq

// headersRefused reports whether the transport refused the delivery's
// header table (HeaderHeadersRefused), and why.
func headersRefused(headers map[string]any) (string, bool) {
	v, ok := headers[HeaderHeadersRefused]
	if !ok {
		return "", false
	}
	if reason, isString := v.(string); isString && reason != "" {
		return reason, true
	}
	return "the transport could not read its header table", true
}
