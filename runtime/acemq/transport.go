package acemq

import (
	"github.com/acemq/acemq-gen/runtime/acemq/driver"
)

// PublishResult is what the broker said about one published message
// (driver.PublishResult).
type PublishResult = driver.PublishResult
