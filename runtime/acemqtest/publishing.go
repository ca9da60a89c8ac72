package acemqtest

import (
	"fmt"
	"strings"
	"sync"

	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

var publishCases = []conformanceCase{
	{"confirms/publish-is-confirmed-with-its-message-id", confirmed},
	{"mandatory/unroutable-message-returns-no-route", unroutableReturns},
	{"mandatory/non-mandatory-unroutable-message-is-dropped-silently", nonMandatoryDropped},
	{"mandatory/each-return-in-a-concurrent-batch-reaches-its-own-message", concurrentReturns},
}

func confirmed(k *kit) {
	q := k.queue(nil)
	res := k.send("", q, "confirm-me")
	if !res.Confirmed || !res.Routed || res.MessageID != "confirm-me" {
		k.t.Errorf("result = %+v, want confirmed and routed confirm-me", res)
	}
}

func unroutableReturns(k *kit) {
	x := k.exchange("direct")
	res := k.publish(x, "nobody", driver.Outbound{MessageID: "lost", Mandatory: true})
	if res.Routed || !strings.Contains(res.ReturnReason, "NO_ROUTE") || res.MessageID != "lost" {
		k.t.Errorf("result = %+v, want not routed with NO_ROUTE", res)
	}
	if !strings.HasPrefix(res.ReturnReason, "312 ") {
		k.t.Errorf("return reason %q, want the broker's 312 code first", res.ReturnReason)
	}
}

func nonMandatoryDropped(k *kit) {
	x := k.exchange("direct")
	if res := k.send(x, "nobody", "dropped"); !res.Routed {
		k.t.Errorf("a non-mandatory unroutable publish reported %+v, want Routed true", res)
	}
}

func concurrentReturns(k *kit) {
	x, q := k.exchange("direct"), k.queue(nil)
	k.bind(q, x, "ok")
	var wg sync.WaitGroup
	for i := range 100 {
		wg.Go(func() {
			key, id := []string{"ok", "nope"}[i%2], fmt.Sprint("batch-", i)
			res, err := k.tr.Publish(k.ctx, x, key, driver.Outbound{MessageID: id, Mandatory: true})
			if err != nil || res.MessageID != id || res.Routed != (key == "ok") {
				k.t.Errorf("%s with key %q: %+v, %v", id, key, res, err)
			}
		})
	}
	wg.Wait()
}
