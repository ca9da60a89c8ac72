package generator

import (
	"testing"
)

// formsProgram checks, on generated packages, the JSON forms of time-* and
// decimal fields (docs/contracts.md, Types): time-millis as integer milliseconds,
// time-micros as integer microseconds, decimal(P,S) as a string with S
// digits, in direct, optional, array, map and union positions; that they
// round-trip through the JSON and TOML codecs and a misfit is a fatal decode
// error; and that the Avro bytes are those of the same value without the
// methods. It exits non-zero with a reason on the first surprise.
const formsProgram = `package main

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"os"
	"strings"
	"time"

	"example.com/golden/codec_avro/telemetry"
	"example.com/golden/json_forms/timing"
	"example.com/golden/logical_types/sched"
	"github.com/acemq/acemq-gen/runtime/acemq"
	"github.com/acemq/acemq-gen/runtime/avro"
	"github.com/acemq/acemq-gen/runtime/toml"
	"github.com/acemq/acemq-gen/runtime/yaml"
)

func main() {
	if err := errors.Join(raceJSON(), unionJSON(), refusals(), tomlAgrees(), yamlRoundTrips(), avroUnchanged()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func race() timing.RaceTimed {
	bonus, penalty, fee := big.NewRat(1, 8), 2*time.Second, big.NewRat(5, 1)
	return timing.RaceTimed{Name: "r", Total: 90500 * time.Millisecond, Reaction: 150 * time.Microsecond,
		Prize: big.NewRat(617, 50), Bonus: &bonus, Penalty: &penalty,
		Splits: []time.Duration{time.Second, 1500 * time.Microsecond}, Fees: []**big.Rat{&fee, nil},
		ByRunner: map[string]time.Duration{"b": time.Millisecond, "a": 3 * time.Microsecond},
		FeesByDay: map[string][]*big.Rat{"mon": {big.NewRat(1, 2)}}, Pauses: []time.Duration{7 * time.Microsecond},
		Laps: []timing.Lap{{Took: 1500 * time.Millisecond, Fee: big.NewRat(1, 4)}}, Best: &timing.Lap{Took: time.Millisecond, Fee: big.NewRat(0, 1)}}
}

const raceWant = ` + "`" + `{"name":"r","total":90500,"reaction":150,"prize":"12.34","bonus":"0.125","penalty":2000,` +
	`"splits":[1000,1],"fees":["5.00",null],"byRunner":{"a":3,"b":1000},"feesByDay":{"mon":["0.5"]},"pauses":[7],` +
	`"laps":[{"took":1500,"fee":"0.25"}],"best":{"took":1,"fee":"0.00"}}` + "`" + `

func raceJSON() error {
	body, err := acemq.JSONCodec{}.Encode(race())
	if err != nil {
		return err
	}
	if string(body) != raceWant {
		return fmt.Errorf("RaceTimed JSON\n got  %s\n want %s", body, raceWant)
	}
	var back timing.RaceTimed
	if err := (acemq.JSONCodec{}).Decode(body, &back); err != nil {
		return fmt.Errorf("RaceTimed decode: %w", err)
	}
	again, err := acemq.JSONCodec{}.Encode(&back)
	if err != nil || string(again) != raceWant || back.Total != 90500*time.Millisecond || (*back.Bonus).Cmp(big.NewRat(1, 8)) != 0 ||
		*back.Penalty != 2*time.Second || back.Fees[1] != nil || back.Laps[0].Took != 1500*time.Millisecond || back.Best.Fee.Sign() != 0 {
		return fmt.Errorf("RaceTimed round trip gave %s, %v", again, err)
	}
	var empty timing.RaceTimed
	if err := (acemq.JSONCodec{}).Decode([]byte(` + "`" + `{"name":"","total":0,"reaction":0,"prize":"0.00","bonus":null,"penalty":null,"splits":[],"fees":[],"byRunner":{},"feesByDay":{},"pauses":null,"laps":[]}` + "`" + `), &empty); err != nil ||
		empty.Bonus != nil || empty.Penalty != nil || empty.Pauses != nil {
		return fmt.Errorf("nulls read as %+v, %v", empty, err)
	}
	return nil
}

func unionJSON() error {
	for _, c := range []struct {
		in   timing.ResultPosted
		want string
	}{
		{timing.ResultPosted{Score: timing.ResultPostedScoreTimeMillis{Value: 1500 * time.Millisecond}, Margin: 250 * time.Microsecond}, ` + "`" + `{"score":{"int":1500},"margin":250}` + "`" + `},
		{timing.ResultPosted{Score: timing.ResultPostedScoreDecimal{Value: big.NewRat(1234, 100)}}, ` + "`" + `{"score":{"bytes":"12.34"},"margin":0}` + "`" + `},
		{timing.ResultPosted{Margin: time.Microsecond}, ` + "`" + `{"score":null,"margin":1}` + "`" + `},
	} {
		body, err := acemq.JSONCodec{}.Encode(c.in)
		if err != nil || string(body) != c.want {
			return fmt.Errorf("ResultPosted JSON %s, %v; want %s", body, err, c.want)
		}
		var back timing.ResultPosted
		if err := (acemq.JSONCodec{}).Decode(body, &back); err != nil || back.Margin != c.in.Margin || fmt.Sprint(back.Score) != fmt.Sprint(c.in.Score) {
			return fmt.Errorf("ResultPosted round trip of %s gave %+v, %v", body, back, err)
		}
	}
	return nil
}

func refusals() error {
	for body, reason := range map[string]string{
		` + "`" + `{"prize":"12.345"}` + "`" + `:              "does not fit decimal(12,2)",
		` + "`" + `{"fees":["12345.00"]}` + "`" + `:           "does not fit decimal(6,2)",
		` + "`" + `{"total":1.5}` + "`" + `:                   "time-millis",
		` + "`" + `{"byRunner":{"a":"1"}}` + "`" + `:          "time-micros",
		` + "`" + `{"laps":[{"fee":"0.001"}]}` + "`" + `:      "does not fit decimal(6,2)",
	} {
		var r timing.RaceTimed
		err := acemq.JSONCodec{}.Decode([]byte(body), &r)
		if !acemq.IsFatal(err) || !strings.Contains(err.Error(), reason) {
			return fmt.Errorf("%s: got %v, want a fatal error naming %q", body, err, reason)
		}
	}
	var p timing.ResultPosted
	if err := (acemq.JSONCodec{}).Decode([]byte(` + "`" + `{"score":{"bytes":"1000"}}` + "`" + `), &p); !acemq.IsFatal(err) {
		return fmt.Errorf("a union decimal that does not fit: got %v", err)
	}
	return nil
}

// tomlAgrees: the TOML codec goes through encoding/json, so it carries the same forms.
func tomlAgrees() error {
	in := sched.SlotBooked{Day: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC), StartsAfter: 1500 * time.Millisecond, Lasts: 250 * time.Microsecond,
		BookedAt: time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC), SeenAt: time.Date(2026, 11, 30, 10, 0, 1, 0, time.UTC)}
	body, err := toml.Codec{}.Encode(in)
	if err != nil {
		return err
	}
	if !bytes.Contains(body, []byte("startsAfter = 1500\n")) || !bytes.Contains(body, []byte("lasts = 250\n")) {
		return fmt.Errorf("TOML does not carry integer units:\n%s", body)
	}
	var back sched.SlotBooked
	if err := (toml.Codec{}).Decode(body, &back); err != nil || back.StartsAfter != in.StartsAfter || back.Lasts != in.Lasts {
		return fmt.Errorf("TOML round trip gave %+v, %v", back, err)
	}
	r := race()
	r.Fees = r.Fees[:1] // TOML has no null, so an array cannot hold one
	if body, err = (toml.Codec{}).Encode(r); err != nil || !bytes.Contains(body, []byte("prize = \"12.34\"\n")) {
		return fmt.Errorf("TOML of RaceTimed:\n%s, %v", body, err)
	}
	var rb timing.RaceTimed
	if err := (toml.Codec{}).Decode(body, &rb); err != nil || rb.Prize.Cmp(r.Prize) != 0 || rb.Splits[1] != time.Millisecond {
		return fmt.Errorf("TOML round trip of RaceTimed gave %+v, %v", rb, err)
	}
	return nil
}

// yamlRoundTrips: runtime/yaml goes through MarshalJSON/UnmarshalJSON, so YAML
// carries the same forms as JSON (integer units, decimal strings).
func yamlRoundTrips() error {
	r := race()
	r.Bonus, r.Fees = nil, nil
	body, err := yaml.Codec{}.Encode(r)
	if err != nil {
		return err
	}
	if !bytes.Contains(body, []byte("total: 90500\n")) || !bytes.Contains(body, []byte("12.34")) {
		return fmt.Errorf("YAML does not carry JSON's forms of a duration and a decimal:\n%s", body)
	}
	var back timing.RaceTimed
	if err := (yaml.Codec{}).Decode(body, &back); err != nil || back.Total != r.Total || back.Prize.Cmp(r.Prize) != 0 || *back.Penalty != *r.Penalty || back.Laps[0].Took != r.Laps[0].Took {
		return fmt.Errorf("YAML round trip gave %+v, %v\n%s", back, err, body)
	}
	return nil
}

type (
	bareReading telemetry.ReadingTaken
	bareLap     timing.Lap
)

// avroUnchanged: hamba/avro never calls MarshalJSON; a value encodes to the
// same bytes as the same value of a type without methods.
func avroUnchanged() error {
	at := time.Date(2026, 11, 30, 10, 0, 0, 123456000, time.UTC)
	r := telemetry.ReadingTaken{SensorID: "s", TakenAt: at, Day: at.Truncate(24 * time.Hour), Offset: 1500 * time.Millisecond,
		Window: 250 * time.Microsecond, Price: big.NewRat(1999, 100), Level: telemetry.LevelHigh}
	if err := sameAvro(r.AvroSchema(), r, bareReading(r)); err != nil {
		return err
	}
	lap := timing.Lap{Took: 1500 * time.Millisecond, Fee: big.NewRat(1234, 100)}
	if err := sameAvro(lap.AvroSchema(), lap, bareLap(lap)); err != nil {
		return err
	}
	c, err := avro.Of(lap.AvroSchema())
	if err != nil {
		return err
	}
	body, err := c.Encode(lap)
	if err != nil || hex.EncodeToString(body) != "b8170404d2" {
		return fmt.Errorf("Avro of Lap is %x, %v; want b8170404d2 (zigzag 1500, 2 bytes 0x04d2)", body, err)
	}
	return nil
}

func sameAvro(schema string, v, bare any) error {
	c, err := avro.Of(schema)
	if err != nil {
		return err
	}
	a, err := c.Encode(v)
	if err != nil {
		return fmt.Errorf("avro encode %T: %w", v, err)
	}
	b, err := c.Encode(bare)
	if err != nil {
		return fmt.Errorf("avro encode %T: %w", bare, err)
	}
	if !bytes.Equal(a, b) {
		return fmt.Errorf("Avro of %T is %x, without its methods %x", v, a, b)
	}
	return nil
}
`

// TestGeneratedJSONFormsCarryUnitsAndDecimalStringsAndLeaveAvroAlone builds
// formsProgram on the golden packages and runs it.
func TestGeneratedJSONFormsCarryUnitsAndDecimalStringsAndLeaveAvroAlone(t *testing.T) {
	if out, err := runGoldenProgram(t, goldenModule(t), "forms", formsProgram); err != nil {
		t.Fatalf("the program on generated code failed: %v\n%s", err, out)
	}
}
