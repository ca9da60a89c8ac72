package goldenjson_test

import (
	"testing"

	mapsinv "github.com/acemq/acemq-gen/generator/internal/goldenjson/arrays_maps/inventory"
	"github.com/acemq/acemq-gen/generator/internal/goldenjson/enums/shop"
	"github.com/acemq/acemq-gen/generator/internal/goldenjson/fixed_decimal/ledger"
	"github.com/acemq/acemq-gen/generator/internal/goldenjson/json_forms/timing"
	"github.com/acemq/acemq-gen/generator/internal/goldenjson/logical_types/sched"
	"github.com/acemq/acemq-gen/generator/internal/goldenjson/optional_types/orders"
	"github.com/acemq/acemq-gen/generator/internal/goldenjson/records_defaults/billing"
	unionsinv "github.com/acemq/acemq-gen/generator/internal/goldenjson/unions/inventory"
)

// Union bodies for the fuzzer: random values leave union fields nil.
const (
	scoreUnions = `{"score":{"int":1500},"margin":7}|{"score":{"bytes":"12.50"},"margin":0}|{"score":{"string":"dnf"}}|{"score":null}|{"score":{"int":1,"string":"x"}}|{"score":{"float":1}}`
	stockUnions = `{"sku":"a","change":{"long":5},"note":{"string":"n"},"at":{"long":1764806400000},"reason":"r"}|{"sku":"b","change":{"com.acme.inventory.Quantity":{"amount":2,"unit":"kg"}},"note":{"double":1.5},"at":{"string":"now"}}|{"change":null}|{"sku":"c"}`
)

func TestGeneratedJSONCodecsReadUnionsAsEncodingJSON(t *testing.T) {
	for _, body := range splitBodies(scoreUnions) {
		for _, b := range variants(body) {
			checkBody[timing.ResultPosted](t, b)
		}
	}
	for _, body := range splitBodies(stockUnions) {
		for _, b := range variants(body) {
			checkBody[unionsinv.StockAdjusted](t, b)
		}
	}
}

func FuzzArraysMapsBin(f *testing.F)           { fuzzType[mapsinv.Bin](f) }
func FuzzArraysMapsStockCounted(f *testing.F)  { fuzzType[mapsinv.StockCounted](f) }
func FuzzEnumsStatusChanged(f *testing.F)      { fuzzType[shop.StatusChanged](f) }
func FuzzFixedDecimalEntryPosted(f *testing.F) { fuzzType[ledger.EntryPosted](f) }
func FuzzJSONFormsLap(f *testing.F)            { fuzzType[timing.Lap](f) }
func FuzzJSONFormsRaceTimed(f *testing.F)      { fuzzType[timing.RaceTimed](f) }
func FuzzJSONFormsResultPosted(f *testing.F) {
	fuzzType[timing.ResultPosted](f, splitBodies(scoreUnions)...)
}
func FuzzLogicalTypesSlotBooked(f *testing.F)       { fuzzType[sched.SlotBooked](f) }
func FuzzOptionalTypesAddress(f *testing.F)         { fuzzType[orders.Address](f) }
func FuzzOptionalTypesCustomerMoved(f *testing.F)   { fuzzType[orders.CustomerMoved](f) }
func FuzzRecordsDefaultsInvoice(f *testing.F)       { fuzzType[billing.Invoice](f) }
func FuzzRecordsDefaultsLine(f *testing.F)          { fuzzType[billing.Line](f) }
func FuzzRecordsDefaultsMoney(f *testing.F)         { fuzzType[billing.Money](f) }
func FuzzRecordsDefaultsInvoiceIssued(f *testing.F) { fuzzType[billing.InvoiceIssued](f) }
func FuzzUnionsQuantity(f *testing.F)               { fuzzType[unionsinv.Quantity](f) }
func FuzzUnionsStockAdjusted(f *testing.F) {
	fuzzType[unionsinv.StockAdjusted](f, splitBodies(stockUnions)...)
}
