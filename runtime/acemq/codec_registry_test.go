package acemq

import (
	"fmt"
	"slices"
	"testing"
)

type csvCodec struct{ StringCodec }

func (csvCodec) ContentType() string { return "text/csv" }

func TestBuiltInCodecsAreRegisteredTextAndStringAlike(t *testing.T) {
	for name, want := range map[string]Codec{"json": JSONCodec{}, "bytes": BytesCodec{}, "text": StringCodec{}, "string": StringCodec{}} {
		c, err := CodecByName(name)
		if err != nil || c != want {
			t.Errorf("CodecByName(%q) = %#v, %v; want %#v", name, c, err, want)
		}
	}
}

func TestUnknownCodecNameListsTheKnownOnesSorted(t *testing.T) {
	_, err := CodecByName("jsn")
	want := `acemq: no codec named "jsn" is registered; known: ` + fmt.Sprint(codecNames())
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %s", err, want)
	}
	names := codecNames()
	if !slices.IsSorted(names) || !slices.Contains(names, "text") || !slices.Contains(names, "json") {
		t.Errorf("codecNames() = %v", names)
	}
}

func TestRegisterCodecAddsAndReplaces(t *testing.T) {
	RegisterCodec("csv-test", func() Codec { return csvCodec{} })
	c, err := CodecByName("csv-test")
	if err != nil || c.ContentType() != "text/csv" {
		t.Fatalf("CodecByName(csv-test) = %v, %v", c, err)
	}
	RegisterCodec("csv-test", func() Codec { return BytesCodec{} })
	if c, _ := CodecByName("csv-test"); c != (BytesCodec{}) {
		t.Errorf("re-registering did not replace: %#v", c)
	}
}

func TestRegisterCodecPanicsOnAMissingNameOrFactory(t *testing.T) {
	for name, f := range map[string]func(){
		"empty name":  func() { RegisterCodec("", func() Codec { return JSONCodec{} }) },
		"nil factory": func() { RegisterCodec("x", nil) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}
