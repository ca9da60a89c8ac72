package memq

import (
	"strconv"
	"time"
)

// ArgStreamOffset is the consumer argument that says where a stream
// subscription starts: first, next, last, an offset or a timestamp.
const ArgStreamOffset = "x-stream-offset"

// memRecord is one record of a stream: the message, its offset and the time
// it was appended.
type memRecord struct {
	m      *memMessage
	offset int64
	at     time.Time
}

// memStream is the log of a queue declared with x-queue-type stream: records
// are appended with offsets from 0 and read without being removed, each
// subscription from its own cursor; retention (x-max-age, x-max-length,
// x-max-length-bytes) drops records from the head. The newest record is
// always kept, as RabbitMQ keeps a stream's active segment.
type memStream struct {
	records []memRecord
	next    int64 // offset of the next record appended
	bytes   int64 // body bytes of records
	maxAge  time.Duration
	limits  memLimits
}

// newMemStream reads the retention arguments of stream queue name.
func (b *Broker) newMemStream(name string, args map[string]any, limits memLimits) (*memStream, error) {
	l := &memStream{limits: limits}
	v, ok := args["x-max-age"]
	if !ok {
		return l, nil
	}
	age, valid := parseMaxAge(argString(v))
	if !valid {
		return nil, b.invalidArg("x-max-age", name, v)
	}
	l.maxAge = age
	return l, nil
}

// maxAgeUnits are x-max-age's units, in RabbitMQ's spelling.
var maxAgeUnits = map[byte]time.Duration{
	'Y': 365 * 24 * time.Hour, 'M': 30 * 24 * time.Hour, 'D': 24 * time.Hour,
	'h': time.Hour, 'm': time.Minute, 's': time.Second,
}

// parseMaxAge reads an x-max-age such as 7D, 3h, 90m or 45s: a positive
// whole number and one unit.
func parseMaxAge(s string) (time.Duration, bool) {
	if len(s) < 2 {
		return 0, false
	}
	unit, ok := maxAgeUnits[s[len(s)-1]]
	n, err := strconv.ParseInt(s[:len(s)-1], 10, 64)
	if !ok || err != nil || n <= 0 {
		return 0, false
	}
	return time.Duration(n) * unit, true
}

// first is the offset of the oldest record held (next when empty).
func (l *memStream) first() int64 { return l.next - int64(len(l.records)) }

// append adds m at the end of the log, then applies retention.
func (l *memStream) append(m *memMessage, now time.Time) {
	l.records = append(l.records, memRecord{m: m, offset: l.next, at: now})
	l.next++
	l.bytes += int64(len(m.out.Body))
	l.trim(now)
}

// trim drops head records past retention: over x-max-length or
// x-max-length-bytes, or older than x-max-age.
func (l *memStream) trim(now time.Time) {
	for len(l.records) > 1 && l.expired(l.records[0], now) {
		l.bytes -= int64(len(l.records[0].m.out.Body))
		l.records[0] = memRecord{}
		l.records = l.records[1:]
	}
}

// expired reports whether the head record r is past retention.
func (l *memStream) expired(r memRecord, now time.Time) bool {
	if l.limits.over(int64(len(l.records)), l.bytes) {
		return true
	}
	return l.maxAge > 0 && now.Sub(r.at) > l.maxAge
}

// at returns the record with offset n, if the log holds it.
func (l *memStream) at(n int64) (memRecord, bool) {
	i := n - l.first()
	if i < 0 || i >= int64(len(l.records)) {
		return memRecord{}, false
	}
	return l.records[i], true
}

// start returns the offset a subscription with x-stream-offset arg starts
// at: first, last (the newest record), next (the default), an offset (a
// negative one is first, one past the end waits for that record) or a
// timestamp, in the whole seconds an AMQP timestamp carries (the first
// record appended at or after it).
func (l *memStream) start(arg any) int64 {
	switch v := normalizeArg(arg).(type) {
	case string:
		return l.startNamed(v)
	case int64:
		return max(v, l.first())
	case time.Time:
		return l.since(v.Truncate(time.Second))
	}
	return l.next
}

func (l *memStream) startNamed(s string) int64 {
	switch s {
	case "first":
		return l.first()
	case "last":
		return max(l.next-1, l.first())
	}
	return l.next
}

// since returns the offset of the first record appended at or after t.
func (l *memStream) since(t time.Time) int64 {
	for _, r := range l.records {
		if !r.at.Before(t) {
			return r.offset
		}
	}
	return l.next
}
