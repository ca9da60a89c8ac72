package generator

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/acemq/acemq-gen/internal/spelling"
)

// keyStatus tells what the parser does with a key of a contract mapping.
type keyStatus int

const (
	keyUnknown   keyStatus = iota // an error: not in the format
	keySupported                  // read
	keyNotYet                     // in the format, refused with "not supported yet"
	keyImplied                    // an event's key, refused where it always holds (see impliedKeys)
)

// impliedKeys says why a key that holds by itself in a context is refused there.
var impliedKeys = map[string]string{
	"mandatory": "only events take it (a command or an rpc request is always mandatory)",
}

// keySet is the keys a mapping of the contract format may hold.
type keySet map[string]keyStatus

// supported is the keys the parser reads, sorted.
func (k keySet) supported() []string {
	var ks []string
	for key, st := range k {
		if st == keySupported {
			ks = append(ks, key)
		}
	}
	slices.Sort(ks)
	return ks
}

// unknown describes key, which k does not hold: the key a typo most likely
// meant, when one is near, and every key k reads.
func (k keySet) unknown(key, what string) string {
	keys := k.supported()
	return fmt.Sprintf("unknown key %q in %s%s (expected one of %s)", key, what,
		spelling.DidYouMean(spelling.Nearest(key, keys)), strings.Join(keys, ", "))
}

// implying marks keys as refused in k because they always hold there.
func (k keySet) implying(keys ...string) keySet {
	for _, s := range keys {
		k[s] = keyImplied
	}
	return k
}

func newKeySet(supported []string, notYet ...string) keySet {
	k := keySet{}
	for _, s := range supported {
		k[s] = keySupported
	}
	for _, s := range notYet {
		k[s] = keyNotYet
	}
	return k
}

var messageKeys = append([]string{"doc", "codec", "routing-key", "version", "deprecated", "headers",
	"retry", "fields", "encrypted", "subject", "schedulable"}, queueKeys...)

// queueKeys are the keys of an event, command or rpc about the queues it is
// consumed from.
var queueKeys = queueKeyNames()

// The key sets of every mapping in a contract, by context.
var (
	fileKeys = newKeySet([]string{"acemq", "domain", "package", "namespace", "doc", "codec",
		"encrypted", "retry", "types", "events", "commands", "imports", "rpc", "set-aside-queues",
		"schedule-ladder", "streams"})
	retryKeys   = newKeySet([]string{"attempts", "backoff", "initial", "max", "max-age"})
	typeKeys    = newKeySet([]string{"doc", "deprecated", "fields", "enum", "default", "fixed", "aliases", "go"})
	fieldKeys   = newKeySet([]string{"type", "default", "doc", "deprecated", "aliases"})
	eventKeys   = newKeySet(append([]string{"schema", "mandatory"}, messageKeys...))
	commandKeys = newKeySet(append([]string{"queue", "schema"}, messageKeys...)).implying("mandatory")
	rpcKeys     = newKeySet(append([]string{"doc", "deprecated", "codec", "encrypted", "queue", "timeout",
		"errors", "request", "response"}, queueKeys...)).implying("mandatory")
	streamKeys = newKeySet([]string{"doc", "deprecated", "codec", "version", "encrypted", "subject",
		"headers", "fields", "schema", "queue", "max-age", "max-bytes", "segment-bytes"})
	payloadKeys = newKeySet([]string{"doc", "fields", "schema"})
	headerKeys  = newKeySet([]string{"type", "required", "doc"})
)

// AcceptedKeys returns, for each context of the contract format (file, retry,
// type, field, event, command, stream, header, rpc, payload), the keys the parser reads, sorted.
// The JSON Schema in schemas/ is tested against it.
func AcceptedKeys() map[string][]string { return keysWith(keySupported) }

// FormatKeys returns, by the same contexts, every key of the contract format:
// those the parser reads and those it refuses as "not supported yet".
func FormatKeys() map[string][]string { return keysWith(keySupported, keyNotYet) }

var keyContexts = map[string]keySet{"file": fileKeys, "retry": retryKeys, "type": typeKeys,
	"field": fieldKeys, "event": eventKeys, "command": commandKeys, "header": headerKeys,
	"rpc": rpcKeys, "payload": payloadKeys, "stream": streamKeys}

func keysWith(statuses ...keyStatus) map[string][]string {
	out := map[string][]string{}
	for ctx, ks := range keyContexts {
		for _, k := range slices.Sorted(maps.Keys(ks)) {
			if slices.Contains(statuses, ks[k]) {
				out[ctx] = append(out[ctx], k)
			}
		}
	}
	return out
}
