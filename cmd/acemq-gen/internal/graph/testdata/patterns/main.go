// Command patterns consumes one event per access pattern; each handler
// reads the field b of its event in its own way (or lets the payload
// escape). The graph's table test checks that every read is found.
package main

import (
	"context"
	"errors"
	"log"

	"example.com/patterns/events"
	"github.com/acemq/acemq-gen/runtime/acemq"
)

// svc is the service every consumer names.
const svc = "patterns"

// sink keeps what handlers compute.
var sink []any

func keep(v int64) { sink = append(sink, v) }

func main() {
	ctx := context.Background()
	conn, err := acemq.Connect(ctx, "memory://patterns")
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	var errs []error
	for _, start := range starts {
		errs = append(errs, start(ctx, conn))
	}
	_, err = events.Subscribe(ctx, conn, svc, handlers{})
	if err := errors.Join(append(errs, err)...); err != nil {
		log.Fatal(err)
	}
}

// consume starts a consumer with h; h's handler reads its event.
func consume[T any](start func(context.Context, *acemq.Conn, string, acemq.Handler[T], ...acemq.ConsumeOption) (*acemq.Consumer, error), h acemq.Handler[T]) func(context.Context, *acemq.Conn) error {
	return func(ctx context.Context, conn *acemq.Conn) error {
		_, err := start(ctx, conn, svc, h)
		return err
	}
}

var starts = []func(context.Context, *acemq.Conn) error{
	consume(events.ConsumeDirect, direct),
	consume(events.ConsumePointerToPayload, pointerToPayload),
	consume(events.ConsumePointerMessage, pointerMessage),
	consume(events.ConsumeLocalCopy, localCopy),
	consume(events.ConsumeHelper, helper),
	consume(events.ConsumeHelperPointer, helperPointer),
	consume(events.ConsumeClosure, closure),
	consume(events.ConsumeMethodValue, methodValue),
	consume(events.ConsumeMethodExpr, methodExpr),
	consume(events.ConsumeGoroutine, goroutine),
	consume(events.ConsumeDefer, deferred),
	consume(events.ConsumeRangePayloads, rangePayloads),
	consume(events.ConsumeRangeNested, rangeNested),
	consume(events.ConsumeSwitchField, switchField),
	consume(events.ConsumeComparison, comparison),
	consume(events.ConsumeEmbedded, embedded),
	consume(events.ConsumeEmbeddedPointer, embeddedPointer),
	consume(events.ConsumeGenericIdentity, genericIdentity),
	consume(events.ConsumeGenericCallback, genericCallback),
	consume(events.ConsumeGenericLeak, genericLeak),
	consume(events.ConsumeAssignAny, assignAny),
	consume(events.ConsumePrintf, printf),
	consume(events.ConsumeReflect, reflected),
	consume(events.ConsumeJSONMarshal, jsonMarshal),
	consume(events.ConsumeReturnAny, returnAny),
	consume(events.ConsumeMapValue, mapValue),
	consume(events.ConsumeChannel, channel),
	consume(events.ConsumeHolderField, holderField),
	consume(events.ConsumeSliceElement, sliceElement),
	consume(events.ConsumeTypeSwitch, typeSwitch),
	consume(events.ConsumeCompareWhole, compareWhole),
	consume(events.ConsumeFuncVariable, funcVariable),
	consume(events.ConsumeInterfaceValue, interfaceValue),
	consume(events.ConsumeConvertNamed, convertNamed),
	consume(events.ConsumeGeneratedMethod, generatedMethod),
	consume(events.ConsumeAnonStruct, anonStruct),
	consume(events.ConsumeMultiReturn, multiReturn),
	consume(events.ConsumePointerReceiver, pointerReceiver),
	consume(events.ConsumeAppendAny, appendAny),
	consume(events.ConsumeGoroutineChannel, goroutineChannel),
	consume(events.ConsumeIndirectHelper, indirectHelper),
	consume(events.ConsumeGenericBoxField, genericBoxField),
	consume(events.ConsumeGenericMethodLeak, genericMethodLeak),
	consume(events.ConsumeMapKey, mapKey),
}
