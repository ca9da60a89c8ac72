package generator

import (
	"strconv"
	"strings"
	"time"
)

// stream resolves one stream of streams: with the file's defaults: its
// name (its queue's) is <domain>.<kebab-name> unless queue: names it, its
// records travel through the default exchange to that queue, mandatory.
func (r *resolver) stream(s *syntaxMessage) *message {
	m := r.message(s)
	m.Queue = orDefault(s.Queue, r.dom.Name+"."+kebab(m.Name))
	m.RoutingKey, m.Mandatory, m.Retry = m.Queue, true, retry{}
	m.Subject = orDefault(s.Subject, defaultSubject(r.dom, m))
	m.Retention = retention{MaxAge: r.streamAge(s.MaxAge), MaxBytes: r.streamBytes(s.MaxBytes, "max-bytes"),
		SegmentBytes: r.streamBytes(s.SegmentBytes, "segment-bytes")}
	if ret := m.Retention; ret.MaxBytes > 0 && ret.SegmentBytes > ret.MaxBytes {
		r.d.errorf(s.SegmentBytes.P, "stream %s: segment-bytes %d is larger than max-bytes %d (a segment is a part of what the stream keeps)",
			m.Name, ret.SegmentBytes, ret.MaxBytes)
	}
	return m
}

// streamAge reads max-age: a Go duration (90m, 3h) or whole days (7d), of
// whole seconds, at least 1s, since x-max-age holds whole seconds.
func (r *resolver) streamAge(s sStr) time.Duration {
	if !s.Set {
		return 0
	}
	d, ok := parseStreamAge(s.V)
	switch {
	case !ok:
		r.d.errorf(s.P, "bad max-age %q: a duration such as 7d, 12h, 90m or 45s", s.V)
	case d < time.Second:
		r.d.errorf(s.P, "bad max-age %q: at least 1s", s.V)
	case d%time.Second != 0:
		r.d.errorf(s.P, "bad max-age %q: whole seconds (x-max-age holds no fraction of a second)", s.V)
	}
	return d
}

// parseStreamAge parses whole days (7d or 7D) or a Go duration.
func parseStreamAge(s string) (time.Duration, bool) {
	if days, ok := strings.CutSuffix(strings.ToLower(s), "d"); ok {
		n, err := strconv.ParseInt(days, 10, 32)
		return time.Duration(n) * 24 * time.Hour, err == nil && n > 0
	}
	d, err := time.ParseDuration(s)
	return d, err == nil
}

// streamBytes reads a positive size in bytes; 0 when absent.
func (r *resolver) streamBytes(s sInt64, key string) int64 {
	if !s.Set {
		return 0
	}
	if s.V < 1 {
		r.d.errorf(s.P, "bad %s %d: a positive number of bytes", key, s.V)
	}
	return s.V
}
