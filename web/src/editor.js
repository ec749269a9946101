// editor.js: the model editor (CodeMirror 6), driven from the Go UI through
// window.locus.editor. The editor owns the text; the UI asks for it when it
// needs it and is told, debounced, when the user stops typing.
import { EditorState, Compartment, StateField, StateEffect } from '@codemirror/state';
import {
  EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter,
  drawSelection, highlightSpecialChars, Decoration,
} from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import {
  syntaxHighlighting, HighlightStyle, bracketMatching, indentOnInput, indentUnit,
} from '@codemirror/language';
import { setDiagnostics, lintGutter } from '@codemirror/lint';
import { searchKeymap, highlightSelectionMatches } from '@codemirror/search';
import { tags as t } from '@lezer/highlight';
import { murphi } from './murphi.js';

const style = HighlightStyle.define([
  { tag: t.keyword, color: '#7a3e9d', fontWeight: '600' },
  { tag: [t.lineComment, t.blockComment], color: '#57606a', fontStyle: 'italic' },
  { tag: t.string, color: '#0a6b2b' },
  { tag: t.number, color: '#8f4700' },
  { tag: t.bool, color: '#8f4700', fontWeight: '600' },
  { tag: t.typeName, color: '#005cc5' },
  { tag: t.operator, color: '#b31d28' },
]);

const theme = EditorView.theme({
  '&': { height: '100%', fontSize: '14px' },
  '.cm-scroller': { fontFamily: 'ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace', lineHeight: '1.45' },
  '.cm-gutters': { backgroundColor: '#f6f8fa', borderRight: '1px solid #e1e4e8', color: '#5b636d' },
});

const DEBOUNCE_MS = 300;

// A highlighted line: the rule of the trace step shown, or where a
// violation happened. One at a time; it follows edits.
const setMark = StateEffect.define();
const markField = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    deco = deco.map(tr.changes);
    for (const e of tr.effects) {
      if (e.is(setMark)) {
        deco = e.value ? Decoration.set([Decoration.line({ class: 'cm-locus-' + e.value.kind }).range(e.value.from)]) : Decoration.none;
      }
    }
    return deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

let view = null;
let onIdle = null;
let timer = 0;
let replaced = false; // the user replaced the whole text (a paste over everything, or typing into an empty editor)
const readOnly = new Compartment();

function changed(u) {
  const byUser = u.transactions.some((tr) => tr.isUserEvent('input') || tr.isUserEvent('delete') || tr.isUserEvent('undo') || tr.isUserEvent('redo') || tr.isUserEvent('move'));
  if (!byUser) return; // setText: the UI knows
  u.transactions.forEach((tr) => {
    if (!tr.docChanged || !tr.isUserEvent('input')) return;
    let whole = false;
    tr.changes.iterChanges((fromA, toA) => { if (fromA === 0 && toA === tr.startState.doc.length) whole = true; });
    if (whole) replaced = true;
  });
  clearTimeout(timer);
  timer = setTimeout(() => { if (onIdle) onIdle(); }, DEBOUNCE_MS);
}

export const editor = {
  // create makes the editor (once) with text; idle() is called when the
  // user has stopped typing for a moment.
  create(text, idle) {
    onIdle = idle;
    if (view) return;
    view = new EditorView({
      state: EditorState.create({
        doc: text,
        extensions: [
          lineNumbers(), highlightActiveLineGutter(), highlightSpecialChars(), history(),
          drawSelection(), indentOnInput(), bracketMatching(), highlightActiveLine(),
          highlightSelectionMatches(), lintGutter(), indentUnit.of('  '),
          keymap.of([indentWithTab, ...defaultKeymap, ...historyKeymap, ...searchKeymap]),
          murphi, syntaxHighlighting(style), theme, EditorView.lineWrapping, readOnly.of(EditorState.readOnly.of(false)),
          EditorView.contentAttributes.of({ 'aria-label': 'Murphi model', spellcheck: 'false' }),
          markField,
          EditorView.updateListener.of((u) => { if (u.docChanged) changed(u); }),
        ],
      }),
    });
  },
  // attach puts the editor into host (again, if the host element was re-created).
  attach(host) {
    if (view && view.dom.parentNode !== host) host.replaceChildren(view.dom);
    // The scrolling part must be reachable from the keyboard too (the
    // text itself traps Tab for indenting: Esc, then Tab, leaves it).
    if (view && view.scrollDOM.tabIndex !== 0) view.scrollDOM.tabIndex = 0;
  },
  getText() { return view ? view.state.doc.toString() : ''; },
  // takeReplaced reports (once) whether the user replaced the whole text
  // since the last call.
  takeReplaced() { const r = replaced; replaced = false; return r; },
  setText(text) {
    if (!view) return;
    clearTimeout(timer);
    replaced = false;
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, selection: { anchor: 0 }, scrollIntoView: true, effects: setMark.of(null) });
    view.dispatch(setDiagnostics(view.state, []));
  },
  // mark highlights a 1-based line ("rule" for a trace step's rule,
  // "violation" for where a property failed) and scrolls to it without
  // taking the focus; line 0 clears the mark.
  mark(lineNo, kind) {
    if (!view) return;
    const doc = view.state.doc;
    if (!lineNo || lineNo > doc.lines) {
      view.dispatch({ effects: setMark.of(null) });
      return;
    }
    const line = doc.line(lineNo);
    view.dispatch({ effects: [setMark.of({ from: line.from, kind }), EditorView.scrollIntoView(line.from, { y: 'center' })] });
  },
  setReadOnly(on) {
    if (view) view.dispatch({ effects: readOnly.reconfigure(EditorState.readOnly.of(on)) });
  },
  // setDiagnostics shows the front end's messages, a JSON array of
  // {line, col, severity, message} (1-based line and column).
  setDiagnostics(json) {
    if (!view) return;
    const doc = view.state.doc;
    const out = [];
    for (const d of JSON.parse(json) || []) {
      const line = doc.line(Math.min(Math.max(d.line, 1), doc.lines));
      const from = Math.min(line.from + Math.max(d.col - 1, 0), line.to);
      // underline the word at the position, or one character
      const m = /^[A-Za-z0-9_]+/.exec(doc.sliceString(from, line.to));
      const to = m ? from + m[0].length : Math.min(from + 1, doc.length);
      out.push({ from, to: Math.max(to, from), severity: d.severity === 'warning' ? 'warning' : 'error', message: d.message });
    }
    view.dispatch(setDiagnostics(view.state, out));
  },
  // goTo moves the cursor to a 1-based line and column and focuses the editor.
  goTo(lineNo, col) {
    if (!view) return;
    const doc = view.state.doc;
    const line = doc.line(Math.min(Math.max(lineNo, 1), doc.lines));
    const pos = Math.min(line.from + Math.max(col - 1, 0), line.to);
    view.dispatch({ selection: { anchor: pos }, scrollIntoView: true });
    view.focus();
  },
};
