package generator

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// queueSettings resolves the keys of an event, command or rpc about the
// queues it is consumed from, each as its row of queueKeyTable says; a key
// the file also holds (set-aside-queues) defaults to the file's.
func (r *resolver) queueSettings(s syntaxQueueKeys) QueueSettings {
	var q QueueSettings
	v := reflect.ValueOf(&q).Elem()
	for _, k := range queueKeyTable {
		f := v.FieldByName(k.field)
		if k.values == nil {
			f.SetInt(int64(r.atLeastOne(s.ints[k.name], k)))
			continue
		}
		str, ok := s.strs[k.name]
		if !ok && k.fileDefault {
			str = r.f.SetAside
		}
		val := r.oneOf(str, k.name, k.what, k.values...)
		if f.Kind() == reflect.Bool {
			f.SetBool(val == k.on)
		} else {
			f.SetString(val)
		}
	}
	return q
}

// atLeastOne reads an integer queue key: at least 1, 0 when absent.
func (r *resolver) atLeastOne(v sInt, k queueKey) int {
	if v.Set && v.V < 1 {
		r.d.errorf(v.P, "%s must be at least 1 (%s), got %d", k.name, k.what, v.V)
		return 0
	}
	return v.V
}

// oneOf reads key's value v, which must be one of allowed; "" when absent
// or refused.
func (r *resolver) oneOf(v sStr, key, what string, allowed ...string) string {
	if !v.Set {
		return ""
	}
	if !slices.Contains(allowed, v.V) {
		r.d.errorf(v.P, "%s must be %s (%s), got %q", key, orList(allowed), what, v.V)
		return ""
	}
	return v.V
}

// orList is "a or b", "a, b or c".
func orList(s []string) string {
	if len(s) == 1 {
		return s[0]
	}
	return fmt.Sprintf("%s or %s", strings.Join(s[:len(s)-1], ", "), s[len(s)-1])
}
