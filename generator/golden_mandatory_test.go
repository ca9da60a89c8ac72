package generator

import (
	"testing"
)

// mandatoryProgram uses the golden case "mandatory" on memory://, with the
// domain's exchange declared and no queue bound: an event marked mandatory:
// true, the .avsc event marked so and the command fail with ErrUnroutable
// naming the exchange and key; events left unmarked are still dropped
// silently; the RPC fails at once rather than after its 30s timeout.
const mandatoryProgram = `package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"example.com/golden/mandatory/alerts"
	"github.com/acemq/acemq-gen/runtime/acemq"
)

func run() error {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	conn, err := acemq.Connect(ctx, "memory://golden-mandatory")
	if err != nil {
		return err
	}
	defer conn.Close()
	if err := acemq.NewTopology().Exchange(alerts.Exchange, "topic").Apply(ctx, conn); err != nil {
		return err
	}
	p := alerts.NewPublisher(conn)
	if err := unroutable(p.PublishAlarmRaised(ctx, alerts.AlarmRaised{AlarmID: "a"}), alerts.AlarmRaisedRoutingKey); err != nil {
		return fmt.Errorf("AlarmRaised (mandatory: true): %w", err)
	}
	if err := unroutable(p.PublishAlarmEscalated(ctx, alerts.AlarmEscalated{AlarmID: "a"}), alerts.AlarmEscalatedRoutingKey); err != nil {
		return fmt.Errorf("AlarmEscalated (.avsc, mandatory: true): %w", err)
	}
	if err := unroutable(p.SendSilenceAlarm(ctx, alerts.SilenceAlarm{AlarmID: "a"}), alerts.SilenceAlarmRoutingKey); err != nil {
		return fmt.Errorf("SilenceAlarm (a command): %w", err)
	}
	if err := errors.Join(p.PublishAlarmCleared(ctx, alerts.AlarmCleared{AlarmID: "a"}),
		p.PublishAlarmNoted(ctx, alerts.AlarmNoted{AlarmID: "a"})); err != nil {
		return fmt.Errorf("an event not marked mandatory failed: %w", err)
	}
	client := alerts.NewClient(conn)
	defer client.Close()
	if _, err := client.GetAlarm(ctx, alerts.GetAlarmRequest{AlarmID: "a"}); !errors.Is(err, acemq.ErrUnroutable) || ctx.Err() != nil {
		return fmt.Errorf("GetAlarm to a queue nobody declared: %v, want ErrUnroutable at once", err)
	}
	return nil
}

func unroutable(err error, key string) error {
	var pf *acemq.PublishFailedError
	if !errors.Is(err, acemq.ErrUnroutable) || !errors.As(err, &pf) {
		return fmt.Errorf("err = %v, want ErrUnroutable", err)
	}
	if pf.Exchange != alerts.Exchange || pf.RoutingKey != key ||
		!strings.Contains(err.Error(), fmt.Sprintf("%q", alerts.Exchange)) || !strings.Contains(err.Error(), fmt.Sprintf("%q", key)) {
		return fmt.Errorf("%v does not name exchange %q and key %q", err, alerts.Exchange, key)
	}
	return nil
}
` + programMain

// TestMandatoryPublishersFailUnroutableAndOtherEventsDoNot runs
// mandatoryProgram against the golden case's generated package.
func TestMandatoryPublishersFailUnroutableAndOtherEventsDoNot(t *testing.T) {
	if out, err := runGoldenProgram(t, goldenModule(t), "run", mandatoryProgram, "GOPROXY=off"); err != nil {
		t.Fatalf("the program on generated code failed: %v\n%s", err, out)
	}
}
