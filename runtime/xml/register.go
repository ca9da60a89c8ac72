package xml

import "github.com/acemq/acemq-gen/runtime/acemq"

func init() {
	acemq.RegisterCodec("xml", func() acemq.Codec { return Codec{} })
}
