package acemq

import (
	"fmt"
	"maps"
	"slices"
	"sync"
)

var codecRegistry = struct {
	sync.RWMutex
	m map[string]func() Codec
}{m: map[string]func() Codec{
	"json":   func() Codec { return JSONCodec{} },
	"bytes":  func() Codec { return BytesCodec{} },
	"text":   func() Codec { return StringCodec{} },
	"string": func() Codec { return StringCodec{} },
}}

// RegisterCodec makes a codec available to CodecByName under name, so that
// configuration can name a format without the code importing it.
// Registering a name again replaces it. json, bytes, text and string come
// registered. An empty name or a nil factory panics, like any registration
// mistake made at init. Safe for concurrent use.
func RegisterCodec(name string, factory func() Codec) {
	if name == "" {
		panic("acemq: RegisterCodec was given an empty name")
	}
	if factory == nil {
		panic(fmt.Sprintf("acemq: RegisterCodec(%q) was given a nil factory", name))
	}
	codecRegistry.Lock()
	defer codecRegistry.Unlock()
	codecRegistry.m[name] = factory
}

// CodecByName returns a new codec of the format registered as name; an
// unknown name is an error listing the known ones. Safe for concurrent use.
func CodecByName(name string) (Codec, error) {
	codecRegistry.RLock()
	factory, ok := codecRegistry.m[name]
	codecRegistry.RUnlock()
	if !ok {
		return nil, fmt.Errorf("acemq: no codec named %q is registered; known: %v", name, codecNames())
	}
	return factory(), nil
}

// codecNames returns the registered codec names, sorted.
func codecNames() []string {
	codecRegistry.RLock()
	defer codecRegistry.RUnlock()
	return slices.Sorted(maps.Keys(codecRegistry.m))
}
