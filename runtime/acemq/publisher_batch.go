package acemq

import (
	"context"
	"sync"
)

// SendAll publishes every payload, one goroutine each (so interceptors run
// concurrently), and waits for every confirm. Results are in payload order,
// always len(payloads) of them. When some fail, the error is a
// *BatchPublishFailedError; the others were still published (not atomic).
// An empty batch succeeds.
func (p *Publisher[T]) SendAll(ctx context.Context, payloads []T, opts ...EnvelopeOption) ([]PublishResult, error) {
	results := make([]PublishResult, len(payloads))
	errs := make([]error, len(payloads))
	var wg sync.WaitGroup
	for i, payload := range payloads {
		wg.Go(func() { results[i], errs[i] = p.SendResult(ctx, payload, opts...) })
	}
	wg.Wait()
	return results, batchError(errs)
}
