package toml

import "github.com/acemq/acemq-gen/runtime/acemq"

func init() {
	acemq.RegisterCodec("toml", func() acemq.Codec { return Codec{} })
}
