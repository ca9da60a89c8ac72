package acemq

import "context"

// InterceptPublish returns a ConnOption adding a publish interceptor that runs
// only for payloads of type T (other messages pass untouched). fn receives a
// pointer to a copy of the payload: what fn leaves in *m is what is published.
// An error fn returns stops the publish and reaches the caller unwrapped, as
// with WithPublishInterceptor; a nil fn is refused at Connect. fn runs on the
// publishing goroutine, so state it keeps must be safe for concurrent use.
func InterceptPublish[T any](fn func(ctx context.Context, c *PublishContext, m *T) error) ConnOption {
	if fn == nil {
		return WithPublishInterceptor(nil)
	}
	return WithPublishInterceptor(func(ctx context.Context, c *PublishContext) error {
		m, ok := c.Payload.(T)
		if !ok {
			return nil
		}
		if err := fn(ctx, c, &m); err != nil {
			return err
		}
		c.Payload = m
		return nil
	})
}
