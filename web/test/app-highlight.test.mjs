// app-highlight: the editor's Murphi tokenizer (web/src/murphi.js), run in Node
// over lines of Murphi: keywords in any case, both comment forms (a block
// comment spanning lines included), strings, numbers and operators.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StringStream } from '@codemirror/language';
import { token } from '../src/murphi.js';

// tokens returns [text, tag] for each non-space token of each line.
function tokens(lines) {
  const state = { inComment: false };
  const out = [];
  for (const line of lines) {
    const s = new StringStream(line, 4, 2);
    while (!s.eol()) {
      const tag = token(s, state);
      const text = s.current();
      if (text.trim()) out.push([text, tag]);
      s.start = s.pos;
    }
  }
  return out;
}

test('keywords are case-insensitive; identifiers are not keywords', () => {
  assert.deepEqual(tokens(['RuleSet i: PID Do EndRuleSet']), [
    ['RuleSet', 'keyword'], ['i', 'variableName'], [':', 'operator'], ['PID', 'variableName'], ['Do', 'keyword'], ['EndRuleSet', 'keyword'],
  ]);
});

test('comments, strings, numbers, booleans and operators', () => {
  assert.deepEqual(tokens(['x := 10; -- set "x"', 'rule "go" TRUE ==> begin end;']), [
    ['x', 'variableName'], [':=', 'operator'], ['10', 'number'], [';', 'punctuation'], ['-- set "x"', 'lineComment'],
    ['rule', 'keyword'], ['"go"', 'string'], ['TRUE', 'bool'], ['==>', 'operator'], ['begin', 'keyword'], ['end', 'keyword'], [';', 'punctuation'],
  ]);
});

test('a block comment may span lines', () => {
  assert.deepEqual(tokens(['a /* one', 'two', 'three */ b', '/* x */ boolean']), [
    ['a', 'variableName'], ['/* one', 'blockComment'], ['two', 'blockComment'], ['three */', 'blockComment'], ['b', 'variableName'],
    ['/* x */', 'blockComment'], ['boolean', 'typeName'],
  ]);
});
