module example.com/billing

go 1.26.0

require github.com/acemq/acemq-gen v0.0.0

replace github.com/acemq/acemq-gen => ../../../../../../..

require example.com/shop v0.0.0

replace example.com/shop => ../shop
