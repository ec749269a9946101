// files.js: the user's models, kept in the browser (IndexedDB, which every
// browser has and which survives reloads), and the file picker, download
// and drag-and-drop that move models in and out. The Go UI decides what to
// save and when; this file only stores, lists and moves bytes.
const DB = 'locus-models'; // not a "locus-run-" store: the engine's clean-up never touches it
const STORE = 'models';
const CURRENT = 'locus.current'; // localStorage: the id of the model open in the editor

let dbPromise = null;

function open() {
  if (!dbPromise) {
    dbPromise = new Promise((resolve, reject) => {
      const req = indexedDB.open(DB, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: 'id' });
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  }
  return dbPromise;
}

async function tx(mode, f) {
  const db = await open();
  return new Promise((resolve, reject) => {
    const t = db.transaction(STORE, mode);
    const result = f(t.objectStore(STORE));
    t.oncomplete = () => resolve(result && 'result' in result ? result.result : undefined);
    t.onerror = () => reject(t.error);
    t.onabort = () => reject(t.error || new Error('the browser refused to save (storage full?)'));
  });
}

function newID() {
  return Date.now().toString(36) + '-' + Math.random().toString(36).slice(2, 8);
}

let onOpenFile = null;

export const files = {
  // list returns the models, newest first, as JSON [{id, name, updated, size}].
  async list() {
    const all = await tx('readonly', (s) => s.getAll());
    all.sort((a, b) => b.updated - a.updated);
    return JSON.stringify(all.map((m) => ({ id: m.id, name: m.name, updated: m.updated, size: m.text.length })));
  },
  // get returns a model as JSON {id, name, text}, or "" if there is none.
  async get(id) {
    const m = await tx('readonly', (s) => s.get(id));
    return m ? JSON.stringify({ id: m.id, name: m.name, text: m.text }) : '';
  },
  // save stores a model (a new one when id is ""), returning its id.
  async save(id, name, text) {
    const m = { id: id || newID(), name, text, updated: Date.now() };
    await tx('readwrite', (s) => s.put(m));
    return m.id;
  },
  async rename(id, name) {
    const m = await tx('readonly', (s) => s.get(id));
    if (!m) throw new Error('that model is gone');
    m.name = name;
    m.updated = Date.now();
    await tx('readwrite', (s) => s.put(m));
    return true;
  },
  async remove(id) {
    await tx('readwrite', (s) => s.delete(id));
    return true;
  },
  current() { try { return localStorage.getItem(CURRENT) || ''; } catch { return ''; } },
  setCurrent(id) { try { if (id) localStorage.setItem(CURRENT, id); else localStorage.removeItem(CURRENT); } catch { /* private mode */ } },

  // download saves text as a file called name.
  download(name, text) {
    files.downloadBlob(name, new Blob([text], { type: 'text/plain' }));
  },
  downloadBlob(name, blob) {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  },
  // copyBlob puts a Blob's text on the clipboard (the promise form keeps
  // the click's permission while the text is read).
  async copyBlob(blob) {
    try {
      if (window.ClipboardItem) {
        await navigator.clipboard.write([new ClipboardItem({ 'text/plain': blob.text().then((t) => new Blob([t], { type: 'text/plain' })) })]);
      } else {
        await navigator.clipboard.writeText(await blob.text());
      }
      return true;
    } catch {
      return false;
    }
  },

  // watch makes picked and dropped .m files reach opened(name, text).
  watch(opened) {
    onOpenFile = opened;
    const page = document.documentElement;
    page.addEventListener('dragover', (e) => {
      if (e.dataTransfer && [...e.dataTransfer.types].includes('Files')) {
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
        document.body.classList.add('dropping');
      }
    });
    page.addEventListener('dragleave', (e) => { if (!e.relatedTarget) document.body.classList.remove('dropping'); });
    page.addEventListener('drop', (e) => {
      document.body.classList.remove('dropping');
      if (!e.dataTransfer || !e.dataTransfer.files.length) return;
      e.preventDefault();
      readFiles(e.dataTransfer.files);
    });
  },
  // pick opens the browser's file picker for .m files.
  pick() {
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = '.m,text/plain';
    input.multiple = true;
    input.addEventListener('change', () => readFiles(input.files));
    input.click();
  },
};

async function readFiles(list) {
  for (const f of list) {
    try {
      if (f.size > 4 << 20) throw new Error('larger than 4 MiB');
      const text = await f.text();
      if (onOpenFile) onOpenFile(f.name, text, '');
    } catch (err) {
      if (onOpenFile) onOpenFile(f.name, '', String(err && err.message ? err.message : err));
    }
  }
}
