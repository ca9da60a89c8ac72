module github.com/acemq/acemq-gen

go 1.26

require (
	github.com/BurntSushi/toml v1.6.0 // indirect
	github.com/dave/jennifer v1.7.1 // indirect
	github.com/go-viper/mapstructure/v2 v2.4.0 // indirect
	github.com/goccy/go-yaml v1.19.2 // indirect
	github.com/hamba/avro/v2 v2.31.0 // indirect
	github.com/json-iterator/go v1.1.12 // indirect
	github.com/modern-go/concurrent v0.0.0-20180306012644-bacd9c7ef1dd // indirect
	github.com/modern-go/reflect2 v1.0.2 // indirect
	github.com/rabbitmq/amqp091-go v1.16.0 // indirect
	golang.org/x/tools v0.45.0 // indirect
)
