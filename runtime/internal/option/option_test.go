package option

import (
	"errors"
	"testing"
)

type opt func(*[]int)

type checked func(*[]int) error

func TestApplySkipsNilOptionsInOrder(t *testing.T) {
	var got []int
	Apply(&got, []opt{func(s *[]int) { *s = append(*s, 1) }, nil, func(s *[]int) { *s = append(*s, 2) }})
	if len(got) != 2 || got[0] != 1 || got[1] != 2 {
		t.Fatalf("got %v", got)
	}
}

func TestApplyCheckedRefusesNilAndStopsAtAnError(t *testing.T) {
	errNil, errBad := errors.New("nil"), errors.New("bad")
	var got []int
	one := checked(func(s *[]int) error { *s = append(*s, 1); return nil })
	if err := ApplyChecked(&got, []checked{one, nil, one}, errNil); err != errNil || len(got) != 1 {
		t.Fatalf("err %v, applied %v", err, got)
	}
	bad := checked(func(*[]int) error { return errBad })
	if err := ApplyChecked(&got, []checked{bad, one}, errNil); err != errBad || len(got) != 1 {
		t.Fatalf("err %v, applied %v", err, got)
	}
}

func TestApplyUntilErrorSkipsNilAndStopsAtAnError(t *testing.T) {
	errBad := errors.New("bad")
	var got []int
	one := checked(func(s *[]int) error { *s = append(*s, 1); return nil })
	bad := checked(func(*[]int) error { return errBad })
	if err := ApplyUntilError(&got, []checked{one, nil, one}); err != nil || len(got) != 2 {
		t.Fatalf("err %v, applied %v", err, got)
	}
	if err := ApplyUntilError(&got, []checked{bad, one}); err != errBad || len(got) != 2 {
		t.Fatalf("err %v, applied %v", err, got)
	}
}
