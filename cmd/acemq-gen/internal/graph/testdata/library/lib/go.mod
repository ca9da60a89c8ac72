module example.com/lib

go 1.26.0

require example.com/shop v0.0.0

require github.com/acemq/acemq-gen v0.0.0 // indirect

replace github.com/acemq/acemq-gen => ../../../../../../..

replace example.com/shop => ../../system/shop
