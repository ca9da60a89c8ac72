package generator

// checkBound refuses what a bound record cannot carry: the methods a union
// or a JSON form (time-millis, time-micros and decimals) needs are generated
// on the record, and nothing can be generated on a type of another package.
// Fields of the other types travel through encoding/json and hamba/avro by
// their tags alone, which validate_gotypes.go checks against the Go type.
func checkBound(dom *domain, d *diags) {
	for _, rec := range dom.Records {
		if !isBound(rec) || rec.Shape != recordShape {
			continue
		}
		if isUnionRecord(rec) {
			d.errorf(rec.Go.Pos, "type %s is bound to %s, but it holds a union, which needs methods generated on the record: a bound record cannot hold one", rec.Name, rec.Go)
		}
		for _, f := range formFields(rec) {
			d.errorf(rec.Go.Pos, "type %s is bound to %s, but its field %s is %s, whose JSON form needs methods generated on the record: a bound record holds no time-millis, time-micros or decimal field",
				rec.Name, rec.Go, f.Name, contractType(f.Type))
		}
	}
}
