// This file prints counterexamples in CMurphi's layout, the text students
// and tools already know: a header with the error, "Startstate ... fired."
// with the whole start state, "Rule ... fired." with the variables the rule
// changed (or every variable, for a full trace), the last state in full,
// and "End of the error trace.".

package verify

import (
	"bufio"
	"io"
	"strings"
)

// WriteTraceCMurphi writes v's counterexample in CMurphi's text format. With
// full set every step shows the whole state (CMurphi's -tf); otherwise only
// the variables each rule changed (CMurphi's default, -td). The CLI
// (--trace-format cmurphi) and the browser's trace export both print with
// this function, so their texts are equal.
func WriteTraceCMurphi(w io.Writer, v Violation, full bool) error {
	b := bufio.NewWriter(w)
	b.WriteString("The following is the error trace for the error:\n\n\t")
	b.WriteString(cmurphiHeadline(v))
	b.WriteString("\n\n")
	last := len(v.Trace) - 1
	for i, st := range v.Trace {
		if i == 0 {
			b.WriteString("Startstate ")
			b.WriteString(strings.TrimPrefix(st.Rule, "startstate "))
			b.WriteString(" fired.\n")
		} else {
			b.WriteString("Rule ")
			b.WriteString(st.Rule)
			b.WriteString(" fired.\n")
		}
		switch {
		case i == 0 || full:
			writeVars(b, st.State, true, nil)
		case i == last:
			b.WriteString("The last state of the trace (in full) is:\n")
			writeVars(b, st.State, true, nil)
		default:
			writeVars(b, st.State, false, st.Changed)
		}
		b.WriteString("----------\n\n")
	}
	b.WriteString("End of the error trace.\n")
	return b.Flush()
}

// writeVars prints "name:value" lines for all the state's components, or
// only for those at the indexes in only.
func writeVars(b *bufio.Writer, state []VarValue, all bool, only []int) {
	line := func(vv VarValue) {
		b.WriteString(vv.Name)
		b.WriteByte(':')
		b.WriteString(vv.Value)
		b.WriteByte('\n')
	}
	if all {
		for _, vv := range state {
			line(vv)
		}
		return
	}
	for _, k := range only {
		if k >= 0 && k < len(state) {
			line(state[k])
		}
	}
}

// cmurphiHeadline is the error line of the trace header, worded as CMurphi
// words it where it has the same kind of error.
func cmurphiHeadline(v Violation) string {
	switch v.Kind {
	case "invariant":
		return "Invariant \"" + v.Name + "\" failed."
	case "deadlock":
		return "Deadlocked state found."
	}
	msg := v.Message
	if msg != "" {
		msg = strings.ToUpper(msg[:1]) + msg[1:]
	}
	if !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	return msg
}
