// This file implements the JSON Canonicalization Scheme (RFC 8785) for the
// values encoding/json decodes with UseNumber, so that a share id depends
// on what was shared, never on key order, spacing or number spelling.

package edge

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// appendCanonical appends the canonical JSON form of v, which must be built
// from nil, bool, string, json.Number, []any and map[string]any.
func appendCanonical(b []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		return strconv.AppendBool(b, v), nil
	case string:
		return appendCanonicalString(b, v), nil
	case json.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil || math.IsInf(f, 0) {
			return nil, fmt.Errorf("number %s is out of range", v)
		}
		return appendES6Number(b, f), nil
	case []any:
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendCanonical(b, e); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return lessUTF16(keys[i], keys[j]) })
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendCanonicalString(b, k)
			b = append(b, ':')
			var err error
			if b, err = appendCanonical(b, v[k]); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	}
	return nil, fmt.Errorf("cannot canonicalize a %T", v)
}

// lessUTF16 orders strings by their UTF-16 code units, as RFC 8785 §3.2.3
// sorts object keys (this differs from byte order only above U+FFFF).
func lessUTF16(a, b string) bool {
	ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	for i := 0; i < len(ua) && i < len(ub); i++ {
		if ua[i] != ub[i] {
			return ua[i] < ub[i]
		}
	}
	return len(ua) < len(ub)
}

// appendCanonicalString escapes only what JSON requires: the quote, the
// backslash and control characters, with the short forms where they exist.
// Everything else, '<' and U+2028 included, is written as UTF-8.
func appendCanonicalString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, `\ufffd`...) // never reached: bodies are checked for UTF-8 first
			} else {
				b = append(b, s[i:i+size]...)
			}
			i += size
			continue
		}
		switch c {
		case '"':
			b = append(b, `\"`...)
		case '\\':
			b = append(b, `\\`...)
		case '\b':
			b = append(b, `\b`...)
		case '\f':
			b = append(b, `\f`...)
		case '\n':
			b = append(b, `\n`...)
		case '\r':
			b = append(b, `\r`...)
		case '\t':
			b = append(b, `\t`...)
		default:
			if c < 0x20 {
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			} else {
				b = append(b, c)
			}
		}
		i++
	}
	return append(b, '"')
}

// appendES6Number writes f as ECMAScript's Number.prototype.toString does
// (RFC 8785 §3.2.2.3): the shortest digits that read back as f, in plain
// notation for exponents from -6 to 20 and in e-notation otherwise.
func appendES6Number(b []byte, f float64) []byte {
	if f == 0 {
		return append(b, '0') // -0 too
	}
	if f < 0 {
		b = append(b, '-')
		f = -f
	}
	// strconv's shortest form: d.ddddde±XX
	e := strconv.FormatFloat(f, 'e', -1, 64)
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	k, n := len(digits), x+1 // f = 0.digits × 10^n
	switch {
	case k <= n && n <= 21:
		b = append(b, digits...)
		b = append(b, strings.Repeat("0", n-k)...)
	case 0 < n && n <= 21:
		b = append(b, digits[:n]...)
		b = append(b, '.')
		b = append(b, digits[n:]...)
	case -6 < n && n <= 0:
		b = append(b, "0."...)
		b = append(b, strings.Repeat("0", -n)...)
		b = append(b, digits...)
	default:
		b = append(b, digits[0])
		if k > 1 {
			b = append(b, '.')
			b = append(b, digits[1:]...)
		}
		b = append(b, 'e')
		if n-1 >= 0 {
			b = append(b, '+')
		}
		b = strconv.AppendInt(b, int64(n-1), 10)
	}
	return b
}
