package acemqimpl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The JSON forms of the contract types whose Go type encoding/json would
// write in another unit: a time-millis or time-micros field is a
// time.Duration (encoding/json writes nanoseconds) and a decimal(P,S) field a
// *big.Rat (encoding/json writes "617/50"). Generated MarshalJSON and
// UnmarshalJSON methods bind such fields to a JSONForm, so the JSON, and the
// TOML that goes through it, carry integers of the unit and decimal strings.

// JSONMillis is a time.Duration whose JSON form is an integer number of
// milliseconds, the form of a time-millis field. Writing truncates toward zero
// to whole milliseconds, as the Avro codec does; reading refuses anything but
// an integer, or one too large for a time.Duration. null reads as no change.
type JSONMillis time.Duration

// MarshalJSON writes d as integer milliseconds.
func (d JSONMillis) MarshalJSON() ([]byte, error) {
	return strconv.AppendInt(nil, int64(time.Duration(d)/time.Millisecond), 10), nil
}

// UnmarshalJSON reads integer milliseconds into d.
func (d *JSONMillis) UnmarshalJSON(data []byte) error {
	return readUnits(data, time.Millisecond, "time-millis", (*time.Duration)(d))
}

// JSONMicros is a time.Duration whose JSON form is an integer number of
// microseconds, the form of a time-micros field; otherwise as JSONMillis.
type JSONMicros time.Duration

// MarshalJSON writes d as integer microseconds.
func (d JSONMicros) MarshalJSON() ([]byte, error) {
	return strconv.AppendInt(nil, int64(time.Duration(d)/time.Microsecond), 10), nil
}

// UnmarshalJSON reads integer microseconds into d.
func (d *JSONMicros) UnmarshalJSON(data []byte) error {
	return readUnits(data, time.Microsecond, "time-micros", (*time.Duration)(d))
}

// readUnits reads a JSON integer of unit into d; null leaves d unchanged.
func readUnits(data []byte, unit time.Duration, kind string, d *time.Duration) error {
	if isNull(data) {
		return nil
	}
	n, err := strconv.ParseInt(string(bytes.TrimSpace(data)), 10, 64)
	if err != nil {
		return fmt.Errorf("acemq: a %s value is a JSON integer of its unit; %s is not one", kind, clip(data))
	}
	if n > math.MaxInt64/int64(unit) || n < math.MinInt64/int64(unit) {
		return fmt.Errorf("acemq: a %s value of %d does not fit a time.Duration", kind, n)
	}
	*d = time.Duration(n) * unit
	return nil
}

// JSONDecimal is a decimal(Precision, Scale) value whose JSON form is a string
// with exactly Scale digits after the point ("12.34"). Writing rounds to Scale
// digits (halves away from zero) and refuses a value with more than
// Precision-Scale digits before the point; a nil Rat writes null. Reading
// takes any decimal string (sign, digits, point, exponent) or JSON number and
// refuses one that does not fit decimal(Precision, Scale): more digits after
// the point than Scale, or more than Precision in all. A Precision of 0 checks
// neither. null reads as a nil Rat.
type JSONDecimal struct {
	Rat              *big.Rat
	Precision, Scale int
}

// MarshalJSON writes the decimal string of d.Rat, or null.
func (d JSONDecimal) MarshalJSON() ([]byte, error) {
	if d.Rat == nil {
		return []byte("null"), nil
	}
	text := d.Rat.FloatString(max(d.Scale, 0))
	if d.Precision > 0 && intDigits(text) > d.Precision-d.Scale {
		return nil, fmt.Errorf("acemq: %s does not fit decimal(%d,%d): more than %d digits before the point", text, d.Precision, d.Scale, d.Precision-d.Scale)
	}
	return strconv.AppendQuote(nil, text), nil
}

// intDigits counts the significant digits before the point of a FloatString.
func intDigits(text string) int {
	text = strings.TrimLeft(text, "-")
	whole, _, _ := strings.Cut(text, ".")
	return len(strings.TrimLeft(whole, "0"))
}

// UnmarshalJSON reads a decimal string (or number) into d.Rat.
func (d *JSONDecimal) UnmarshalJSON(data []byte) error {
	if isNull(data) {
		d.Rat = nil
		return nil
	}
	if n := len(bytes.TrimSpace(data)); n > MaxDecimalText+2 { // +2: the quotes
		return fmt.Errorf("acemq: a decimal of %d characters (%s) is longer than %d: refused before parsing, which costs the square of its length", n, clip(data), MaxDecimalText)
	}
	text, err := decimalText(data)
	if err != nil {
		return err
	}
	r, ok := new(big.Rat).SetString(text)
	if !ok {
		return fmt.Errorf("acemq: %q is not a decimal string", clip([]byte(text)))
	}
	if err := d.fits(text, r); err != nil {
		return err
	}
	d.Rat = r
	return nil
}

// MaxDecimalText is the longest decimal string JSONDecimal reads: math/big
// parses n digits in time growing with n², so a million digits would take
// seconds and a message of them minutes. A decimal(38, 18) needs under 60.
const MaxDecimalText = 1024

// decimalPattern is a decimal number: sign, digits, point, a bounded exponent.
var decimalPattern = regexp.MustCompile(`^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]{1,4})?$`)

// decimalText is the decimal a JSON string or number spells.
func decimalText(data []byte) (string, error) {
	text := string(bytes.TrimSpace(data))
	if len(text) > 0 && text[0] == '"' {
		if err := json.Unmarshal(data, &text); err != nil {
			return "", fmt.Errorf("acemq: a decimal is a JSON string: %w", err)
		}
	}
	if !decimalPattern.MatchString(text) {
		return "", fmt.Errorf("acemq: a decimal is a string of digits with an optional point, such as \"12.34\"; %s is not one", clip(data))
	}
	return text, nil
}

// fits checks r, read from text, against decimal(Precision, Scale).
func (d *JSONDecimal) fits(text string, r *big.Rat) error {
	if d.Precision <= 0 {
		return nil
	}
	scaled := new(big.Rat).Mul(r, new(big.Rat).SetInt(pow10(d.Scale)))
	if !scaled.IsInt() {
		return fmt.Errorf("acemq: %s does not fit decimal(%d,%d): more than %d digits after the point", clip([]byte(text)), d.Precision, d.Scale, d.Scale)
	}
	if !fitsDigits(r, d.Precision-d.Scale) {
		return fmt.Errorf("acemq: %s does not fit decimal(%d,%d): more than %d digits before the point", clip([]byte(text)), d.Precision, d.Scale, d.Precision-d.Scale)
	}
	return nil
}

// fitsDigits reports whether r has at most n digits before the point.
func fitsDigits(r *big.Rat, n int) bool {
	if n < 0 {
		return false
	}
	abs := new(big.Rat).Abs(r)
	return abs.Cmp(new(big.Rat).SetInt(pow10(n))) < 0
}

func pow10(n int) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(max(n, 0))), nil)
}

// isNull reports whether data is the JSON literal null.
func isNull(data []byte) bool { return string(bytes.TrimSpace(data)) == "null" }

// clip is data for an error message, cut to a readable length.
func clip(data []byte) string {
	const most = 40
	if len(data) > most {
		return string(data[:most]) + "..."
	}
	return string(data)
}
