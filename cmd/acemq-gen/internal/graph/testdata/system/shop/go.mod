module example.com/shop

go 1.26.0

require github.com/acemq/acemq-gen v0.0.0

replace github.com/acemq/acemq-gen => ../../../../../../..
