module example.com/ledger

go 1.26.0

require (
	example.com/shop v0.0.0
	github.com/acemq/acemq-gen v0.0.0
)

replace github.com/acemq/acemq-gen => ../../../../../../..

replace example.com/shop => ../../system/shop

require example.com/lib v0.0.0

replace example.com/lib => ../lib
