package acemqtest

import (
	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/internal/implbridge"
)

// consumeHeaderRules is acemqimpl.ConsumeHeaderRules, reached through the
// bridge because acemqimpl imports runtime/patterns, whose tests import this
// package.
func consumeHeaderRules(rules ...acemq.HeaderRule) acemq.ConsumeOption {
	return implbridge.ConsumeHeaderRules(rules).(acemq.ConsumeOption)
}

// publishHeaderRules is acemqimpl.PublishHeaderRules (see consumeHeaderRules).
func publishHeaderRules[T any](rules ...acemq.HeaderRule) acemq.PublisherOption[T] {
	return func(p *acemq.Publisher[T]) { implbridge.PublishHeaderRules(p, rules) }
}
