package yaml

import "github.com/acemq/acemq-gen/runtime/acemq"

func init() {
	acemq.RegisterCodec("yaml", func() acemq.Codec { return Codec{} })
}
