package avro

import (
	"errors"
	"sync"
	"time"
)

// What a registered codec keeps of schema ids the registry does not hold. A
// foreign publisher can frame every message with a new id; remembering each
// would grow without bound, and asking the registry about each would pass
// the flood on to it. So the codec remembers the most recent
// UnknownIDCacheSize of them for UnknownIDTTL (a message naming one is set
// aside without a request), and asks the registry about new ids at most
// UnknownIDLookupsPerSecond a second (bursts of UnknownIDLookupBurst) once
// lookups start finding nothing; past that rate a message naming an id the
// codec has not seen is set aside without a request, with a reason that
// says so (a schema registered during such a flood is read again once the
// flood passes; its messages can be redriven from the parked queue).
const (
	UnknownIDCacheSize        = 1024
	UnknownIDTTL              = time.Minute
	UnknownIDLookupsPerSecond = 10
	UnknownIDLookupBurst      = 20
)

// ErrUnknownIDLookupsLimited is the error of a message set aside because
// lookups of unknown schema ids are over UnknownIDLookupsPerSecond.
var ErrUnknownIDLookupsLimited = errors.New("acemq: lookups of schema ids the registry does not hold are over their rate")

// unknownIDs is a bounded, expiring set of ids the registry did not hold,
// with the rate limit on looking up more. Safe for concurrent use.
type unknownIDs struct {
	mu     sync.Mutex
	seen   map[int]time.Time // id → when it expires
	ring   []int             // ids in the order they were added, for eviction
	next   int               // the ring slot the next id takes
	tokens float64           // lookups allowed now
	filled time.Time         // when tokens was last topped up
	now    func() time.Time
}

func newUnknownIDs() *unknownIDs {
	return &unknownIDs{seen: map[int]time.Time{}, tokens: UnknownIDLookupBurst, now: time.Now}
}

// known reports whether id was found missing within UnknownIDTTL.
func (u *unknownIDs) known(id int) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	exp, ok := u.seen[id]
	return ok && u.now().Before(exp)
}

// mayLookUp reports whether a lookup of an id not yet seen is within the
// rate.
func (u *unknownIDs) mayLookUp() bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.refill()
	return u.tokens >= 1
}

// add records id as missing and spends a lookup token.
func (u *unknownIDs) add(id int) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.refill()
	u.tokens = max(u.tokens-1, 0)
	if _, ok := u.seen[id]; !ok {
		u.push(id)
	}
	u.seen[id] = u.now().Add(UnknownIDTTL)
}

// push puts id in the ring, forgetting the oldest id once it is full.
func (u *unknownIDs) push(id int) {
	if len(u.ring) < UnknownIDCacheSize {
		u.ring = append(u.ring, id)
		return
	}
	delete(u.seen, u.ring[u.next])
	u.ring[u.next] = id
	u.next = (u.next + 1) % UnknownIDCacheSize
}

func (u *unknownIDs) refill() {
	now := u.now()
	if !u.filled.IsZero() {
		u.tokens = min(u.tokens+now.Sub(u.filled).Seconds()*UnknownIDLookupsPerSecond, UnknownIDLookupBurst)
	}
	u.filled = now
}

// size returns how many ids are remembered.
func (u *unknownIDs) size() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return len(u.seen)
}
