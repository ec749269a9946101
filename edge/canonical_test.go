package edge

import (
	"bytes"
	"encoding/json"
	"testing"
)

func canonicalOf(t *testing.T, in string) string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader([]byte(in)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode %s: %v", in, err)
	}
	b, err := appendCanonical(nil, v)
	if err != nil {
		t.Fatalf("canonical %s: %v", in, err)
	}
	return string(b)
}

func TestCanonicalNumbers(t *testing.T) {
	// Examples from RFC 8785 §3.2.2.3 and Appendix B (ECMAScript's Number
	// to string).
	for in, want := range map[string]string{
		"0": "0", "-0": "0", "1": "1", "-1": "-1", "4.50": "4.5", "2e-3": "0.002",
		"1E30": "1e+30", "1e21": "1e+21", "1e20": "100000000000000000000",
		"0.000001": "0.000001", "1e-7": "1e-7", "0.000000000000000000000000001": "1e-27",
		"333333333.33333329": "333333333.3333333", "123456789012345678901": "123456789012345680000",
		"9007199254740992": "9007199254740992", "1.5e300": "1.5e+300", "-5e-324": "-5e-324",
		"1.7976931348623157e308": "1.7976931348623157e+308", "64": "64", "0.5": "0.5",
	} {
		t.Run(in, func(t *testing.T) {
			if got := canonicalOf(t, in); got != want {
				t.Errorf("canonical(%s) = %s, want %s", in, got, want)
			}
		})
	}
}

func TestCanonicalStructure(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"b": 1, "a": [true, false, null], "c": {"z": "", "y": "x"}}`, `{"a":[true,false,null],"b":1,"c":{"y":"x","z":""}}`},
		// Only quote, backslash and controls are escaped; '<', '&', U+2028 and
		// non-ASCII stay as they are; \u escapes of printable text disappear.
		{`"<a href=\"x\">&amp;\u00e9\u2028\/\u0041"`, "\"<a href=\\\"x\\\">&amp;é\u2028/A\""},
		{`"\u0000\u001f\b\f\n\r\t\u007f"`, `"\u0000\u001f\b\f\n\r\t` + "\x7f" + `"`},
		// Keys sort by UTF-16 code units: U+FFFD (one unit, 0xFFFD) sorts
		// after U+1F600 (surrogates 0xD83D 0xDE00), though its UTF-8 is smaller.
		{`{"\ufffd": 1, "\ud83d\ude00": 2, "a": 3}`, "{\"a\":3,\"\U0001F600\":2,\"\uFFFD\":1}"},
	} {
		if got := canonicalOf(t, tc.in); got != tc.want {
			t.Errorf("canonical(%s) =\n %s\nwant\n %s", tc.in, got, tc.want)
		}
	}
	if _, err := appendCanonical(nil, json.Number("1e400")); err == nil {
		t.Errorf("1e400 canonicalized; want an out-of-range error")
	}
}
