package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/patterns"
	_ "github.com/acemq/acemq-gen/runtime/rabbitmq" // amqp://
)

// acemqQueue connects and declares a fresh queue (durable, quorum: the
// runtime's default).
func acemqQueue(ctx context.Context, e *env, prefix string) (*acemq.Conn, string, error) {
	conn, err := acemq.Connect(ctx, e.url)
	if err != nil {
		return nil, "", err
	}
	q := queueName(prefix)
	if err := conn.DeclareQueue(ctx, q); err != nil {
		_ = conn.Close()
		return nil, "", err
	}
	return conn, q, nil
}

// closing closes conn and deletes q with the queues the runtime declares beside it.
func closing(e *env, conn *acemq.Conn, q string) func() {
	return func() {
		_ = conn.Close()
		deleteQueues(e.url, q, acemq.DeadLetterQueue(q), acemq.ParkedQueue(q))
	}
}

// acemqStream sends n events with SendAsync, keeping the connection's
// window of 1,000 unconfirmed publishes (MaxOutstandingPublishes) full,
// then waits for every Pending.
func acemqStream(ctx context.Context, e *env, n int) (trial, error) {
	conn, q, err := acemqQueue(ctx, e, "stream")
	if err != nil {
		return trial{}, err
	}
	pub := acemq.NewPublisher[event](conn, "", q)
	run := func(ctx context.Context) error {
		pendings := make([]*acemq.Pending, 0, n)
		for i := range n {
			p, err := pub.SendAsync(ctx, newEvent(i))
			if err != nil {
				return err
			}
			pendings = append(pendings, p)
		}
		for _, p := range pendings {
			if _, err := p.Wait(ctx); err != nil {
				return err
			}
		}
		return nil
	}
	return trial{run: run, teardown: closing(e, conn, q)}, nil
}

// acemqBatch sends n events with SendAll, 1,000 at a time.
func acemqBatch(ctx context.Context, e *env, n int) (trial, error) {
	conn, q, err := acemqQueue(ctx, e, "batch")
	if err != nil {
		return trial{}, err
	}
	pub := acemq.NewPublisher[event](conn, "", q)
	run := func(ctx context.Context) error { return sendAllEvents(ctx, pub, n) }
	return trial{run: run, teardown: closing(e, conn, q)}, nil
}

// acemqSendN sends n events from g goroutines, each calling Send.
func acemqSendN(g int) func(context.Context, *env, int) (trial, error) {
	return func(ctx context.Context, e *env, n int) (trial, error) {
		conn, q, err := acemqQueue(ctx, e, "send")
		if err != nil {
			return trial{}, err
		}
		pub := acemq.NewPublisher[event](conn, "", q)
		run := func(ctx context.Context) error {
			return spread(n, g, func(i int) error { return pub.Send(ctx, newEvent(i)) })
		}
		return trial{run: run, teardown: closing(e, conn, q)}, nil
	}
}

// spread runs f(0..n-1) on g goroutines and returns the first error.
func spread(n, g int, f func(i int) error) error {
	var next atomic.Int64
	errs := make([]error, g)
	var wg sync.WaitGroup
	for w := range g {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				if err := f(i); err != nil {
					errs[w] = err
					return
				}
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// filledQueue is acemqQueue with n events put on the queue by fillWithAcemq;
// on an error nothing is left behind.
func filledQueue(ctx context.Context, e *env, prefix string, n int) (*acemq.Conn, string, error) {
	conn, q, err := acemqQueue(ctx, e, prefix)
	if err != nil {
		return nil, "", err
	}
	if err := fillWithAcemq(ctx, conn, q, n); err != nil {
		closing(e, conn, q)()
		return nil, "", err
	}
	return conn, q, nil
}

// fillWithAcemq puts n events on q with SendAll (not timed).
func fillWithAcemq(ctx context.Context, conn *acemq.Conn, q string, n int) error {
	return sendAllEvents(ctx, acemq.NewPublisher[event](conn, "", q), n)
}

// sendAllEvents sends events 0..n-1 through pub with SendAll, window at a time.
func sendAllEvents(ctx context.Context, pub *acemq.Publisher[event], n int) error {
	batch := make([]event, 0, window)
	for done := 0; done < n; done += len(batch) {
		batch = batch[:0]
		for i := done; i < min(n, done+window); i++ {
			batch = append(batch, newEvent(i))
		}
		if _, err := pub.SendAll(ctx, batch); err != nil {
			return err
		}
	}
	return nil
}

// acemqConsume takes n events off a filled queue with Consume[event]:
// manual acks, prefetch 1,000, workers goroutines.
func acemqConsume(workers int) func(context.Context, *env, int) (trial, error) {
	return func(ctx context.Context, e *env, n int) (trial, error) {
		conn, q, err := filledQueue(ctx, e, "consume", n)
		if err != nil {
			return trial{}, err
		}
		run := func(ctx context.Context) error {
			var got atomic.Int64
			done := make(chan struct{})
			c, err := acemq.Consume(ctx, conn, q, func(context.Context, acemq.Message[event]) acemq.Ack {
				if got.Add(1) == int64(n) {
					close(done)
				}
				return acemq.Accept()
			}, acemq.Prefetch(window), acemq.Concurrency(workers))
			if err != nil {
				return err
			}
			defer c.Close()
			return awaitDone(ctx, done, "consumed", &got, n)
		}
		return trial{run: run, teardown: closing(e, conn, q)}, nil
	}
}

// awaitDone waits for done; when ctx ends first it says how many of n
// messages (got) were verb.
func awaitDone(ctx context.Context, done <-chan struct{}, verb string, got *atomic.Int64, n int) error {
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%s %d of %d: %w", verb, got.Load(), n, ctx.Err())
	}
}

// acemqRPC makes n calls from callers goroutines through a generated-style
// RPC client (patterns.NewClient, what generated clients hold) to
// patterns.Serve echoing the request, on connections of their own.
func acemqRPC(callers int) func(context.Context, *env, int) (trial, error) {
	return func(ctx context.Context, e *env, n int) (trial, error) {
		server, q, err := acemqQueue(ctx, e, "rpc")
		if err != nil {
			return trial{}, err
		}
		client, err := acemq.Connect(ctx, e.url)
		if err != nil {
			closing(e, server, q)()
			return trial{}, err
		}
		echo := func(_ context.Context, m acemq.Message[event]) (event, error) { return m.Payload, nil }
		resp, err := patterns.Serve(ctx, server, q, echo, acemq.Concurrency(callers), acemq.Prefetch(2*callers))
		if err != nil {
			_ = client.Close()
			closing(e, server, q)()
			return trial{}, err
		}
		rpc := patterns.NewClient[event, event](client, "", q)
		if _, err := rpc.Do(ctx, newEvent(-1)); err != nil { // opens the reply channel, untimed
			return trial{}, err
		}
		run := func(ctx context.Context) error {
			return spread(n, callers, func(i int) error { _, err := rpc.Do(ctx, newEvent(i)); return err })
		}
		teardown := func() {
			_ = rpc.Close()
			_ = resp.Close()
			_ = client.Close()
			closing(e, server, q)()
		}
		return trial{run: run, teardown: teardown}, nil
	}
}
