package acemqimpl

import (
	"errors"
	"github.com/acemq/acemq-gen/runtime/acemq"
	"strconv"
	"testing"
)

func TestMirrorHelpersConvertAndKeepNil(t *testing.T) {
	itoa := func(i int) string { return strconv.Itoa(i) }
	if got := MirrorSlice([]int{1, 2}, itoa); len(got) != 2 || got[1] != "2" {
		t.Fatalf("MirrorSlice = %q", got)
	}
	if got := MirrorMap(map[string]int{"a": 3}, itoa); got["a"] != "3" {
		t.Fatalf("MirrorMap = %q", got)
	}
	one := 1
	if got := MirrorPtr(&one, itoa); got == nil || *got != "1" {
		t.Fatalf("MirrorPtr = %v", got)
	}
	if MirrorSlice[int, string](nil, itoa) != nil || MirrorMap[int, string](nil, itoa) != nil || MirrorPtr[int, string](nil, itoa) != nil {
		t.Fatal("a nil input must stay nil")
	}
}

func TestMirroredPassesOnTheBuildError(t *testing.T) {
	to, from := func(i int) string { return strconv.Itoa(i) }, func(s string) int { n, _ := strconv.Atoi(s); return n }
	want := errors.New("no registry")
	failing := func(*acemq.Conn) (acemq.Codec, error) { return nil, want }
	if _, err := Mirrored(to, from, failing)(nil); !errors.Is(err, want) {
		t.Fatalf("err = %v, want the build error", err)
	}
	c, err := Mirrored(to, from, Static(acemq.JSONCodec{}))(nil)
	if err != nil || c == nil {
		t.Fatalf("Mirrored = %v, %v", c, err)
	}
	body, err := c.Encode(7)
	if err != nil || string(body) != `"7"` {
		t.Fatalf("Encode(7) = %s, %v; want the mirror's JSON", body, err)
	}
}
