// murphi.js: a CodeMirror 6 stream language for Murphi models.
// Keywords are case-insensitive (as in Murphi); identifiers keep their case.
import { StreamLanguage } from '@codemirror/language';

const keywords = new Set((
  'alias array assert begin by case clear const do else elsif end endalias endexists endfor ' +
  'endforall endfunction endif endprocedure endrecord endrule endruleset endstartstate endswitch ' +
  'endwhile enum error exists for forall function if in interleaved invariant of procedure process ' +
  'program put record return rule ruleset startstate switch then to traceuntil type var while ' +
  'scalarset ismember undefine isundefined undefined union multiset multisetadd multisetremove ' +
  'multisetremovepred multisetcount choose endchoose assume cover liveness real externfun externproc'
).split(' '));
const atoms = new Set(['true', 'false']);
const types = new Set(['boolean']);

// token reads one token from stream and returns its highlighting tag name;
// state.inComment carries a /* */ comment across lines.
export function token(stream, state) {
  if (state.inComment) {
    if (stream.skipTo('*/')) {
      stream.match('*/');
      state.inComment = false;
    } else {
      stream.skipToEnd();
    }
    return 'blockComment';
  }
  if (stream.eatSpace()) return null;
  if (stream.match('--')) {
    stream.skipToEnd();
    return 'lineComment';
  }
  if (stream.match('/*')) {
    state.inComment = true;
    return token(stream, state);
  }
  if (stream.match(/^"(?:[^"\\]|\\.)*"?/)) return 'string';
  if (stream.match(/^\d+(?:\.\d+)?/)) return 'number';
  const word = stream.match(/^[A-Za-z_][A-Za-z0-9_]*/);
  if (word) {
    const w = word[0].toLowerCase();
    if (keywords.has(w)) return 'keyword';
    if (atoms.has(w)) return 'bool';
    if (types.has(w)) return 'typeName';
    return 'variableName';
  }
  if (stream.match(/^(?::=|==>|->|<=|>=|!=|\.\.)/)) return 'operator';
  const ch = stream.next();
  if ('+-*/%<>=!&|?:'.includes(ch)) return 'operator';
  if ('()[]{}'.includes(ch)) return 'bracket';
  if (ch === ';' || ch === ',' || ch === '.') return 'punctuation';
  return null;
}

export const murphi = StreamLanguage.define({
  name: 'murphi',
  startState: () => ({ inComment: false }),
  token,
  languageData: {
    commentTokens: { line: '--', block: { open: '/*', close: '*/' } },
  },
});
