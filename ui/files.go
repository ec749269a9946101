// This file keeps the user's models: the text in the editor is saved (to
// IndexedDB, through web/src/files.js) a moment after each edit and comes
// back on the next visit; models can be listed, created, renamed,
// duplicated, deleted, opened from disk (picker or drag-and-drop) and
// downloaded. A shipped example or a shared model becomes one of the
// user's models on its first edit.

package ui

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/vugu/vugu"
	"github.com/vugu/vugu/js"
)

// Files is the state of the user's saved models.
type Files struct {
	List    []ModelInfo
	Current string // id of the model in the editor; "" for an example or share link not edited yet
	Saved   string // the text last saved for Current
	Status  string // "saved", "saving", or an error
	Open    bool   // the files dialog is shown
	Rename  string // id of the model being renamed in the dialog
	onDrop  js.Func
}

// ModelInfo is one saved model in the list.
type ModelInfo struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Updated int64  `json:"updated"` // ms since 1970
	Size    int    `json:"size"`
}

// When says when the model was last changed.
func (m ModelInfo) When() string {
	t := time.UnixMilli(m.Updated)
	if time.Since(t) < 24*time.Hour {
		return t.Format("15:04")
	}
	return t.Format("2 Jan 2006")
}

func filesCall(method string, args ...any) (js.Value, error) {
	return await(locus("files").Call(method, args...))
}

func filesSetCurrent(id string) { locus("files").Call("setCurrent", id) }

// untitled is the name of a model typed or pasted from scratch.
const untitled = "untitled.m"

// modelName makes name a model file name: a base name ending in .m.
func modelName(name string) string {
	name = strings.TrimSpace(path.Base(strings.ReplaceAll(name, "\\", "/")))
	if name == "" || name == "." || name == "/" {
		return untitled
	}
	if !strings.HasSuffix(strings.ToLower(name), ".m") {
		name += ".m"
	}
	return name
}

// uniqueName returns name, or name-2.m, name-3.m ... if a saved model other
// than except already has it.
func uniqueName(name string, list []ModelInfo, except string) string {
	taken := func(n string) bool {
		for _, m := range list {
			if m.Name == n && m.ID != except {
				return true
			}
		}
		return false
	}
	if !taken(name) {
		return name
	}
	base := strings.TrimSuffix(name, ".m")
	for i := 2; ; i++ {
		if n := fmt.Sprintf("%s-%d.m", base, i); !taken(n) {
			return n
		}
	}
}

// watchFiles makes files dropped on the page (or picked) open as models.
func (a *App) watchFiles() {
	a.Files.onDrop = js.FuncOf(func(this js.Value, args []js.Value) any {
		name, text, problem := args[0].String(), args[1].String(), args[2].String()
		a.post(func() bool {
			if problem != "" {
				a.Notice = Notice{"error", fmt.Sprintf("%s could not be opened: %s", name, problem)}
				return true
			}
			a.openAsNew(modelName(name), text, "Opened "+name+".")
			return true
		})
		return nil
	})
	locus("files").Call("watch", a.Files.onDrop)
}

// restore opens the model of the last visit, or the first example.
func (a *App) restore(examples []Example) {
	a.refreshFiles()
	id := locus("files").Call("current").String()
	if id != "" {
		if v, err := filesCall("get", id); err == nil && v.String() != "" {
			var m struct{ ID, Name, Text string }
			if json.Unmarshal([]byte(v.String()), &m) == nil {
				a.post(func() bool {
					if a.Example != "" || a.Files.Current != "" {
						locus("util").Call("loaded")
						return false // the user opened something meanwhile
					}
					a.setModel(m.Name, m.Text)
					a.Files.Current, a.Files.Saved, a.Files.Status = m.ID, m.Text, "saved"
					filesSetCurrent(m.ID)
					locus("util").Call("loaded")
					return true
				})
				return
			}
		}
	}
	if len(examples) > 0 {
		a.loadExample(examples[0].File, true)
	} else {
		locus("util").Call("loaded")
	}
}

// refreshFiles reloads the list of saved models (call from a goroutine).
func (a *App) refreshFiles() {
	v, err := filesCall("list")
	var list []ModelInfo
	if err == nil {
		err = json.Unmarshal([]byte(v.String()), &list)
	}
	a.post(func() bool {
		if err != nil {
			a.Files.Status = "Your models cannot be saved in this browser: " + err.Error()
			return true
		}
		a.Files.List = list
		return true
	})
}

// edited is called when the editor's text changed to src: the text is
// saved, as a new model if it was an example or a shared link.
func (a *App) edited(src string) {
	replaced := editorTakeReplaced()
	if a.Files.Current == "" {
		if !replaced && a.Files.Saved == src {
			return // as loaded
		}
		if replaced || strings.TrimSpace(src) == "" && a.Filename != untitled {
			// Text typed or pasted over everything is a new model, not
			// the example or file it replaced.
			a.Filename = untitled
		}
		if a.Example == "" && a.Filename == untitled && strings.TrimSpace(src) == "" {
			return // nothing worth keeping yet
		}
		a.Example = ""
		a.Filename = uniqueName(a.Filename, a.Files.List, "")
		a.save("", a.Filename, src)
		return
	}
	a.Example = ""
	if src != a.Files.Saved {
		a.save(a.Files.Current, a.Filename, src)
	}
}

// save stores text as the model id (a new one if id is "") and makes it
// the current model.
func (a *App) save(id, name, text string) {
	a.Files.Status = "saving"
	a.Files.Saved = text
	go func() {
		v, err := filesCall("save", id, name, text)
		a.post(func() bool {
			if err != nil {
				a.Files.Status = "not saved: " + err.Error()
				return true
			}
			newID := v.String()
			if a.Files.Current == id && a.Filename == name {
				a.Files.Current = newID
				filesSetCurrent(newID)
			}
			a.Files.Status = "saved"
			go a.refreshFiles()
			return true
		})
	}()
}

// openAsNew puts text in the editor as a new saved model called name.
func (a *App) openAsNew(name, text, notice string) {
	name = uniqueName(name, a.Files.List, "")
	a.setModel(name, text)
	a.Notice = Notice{"info", notice}
	a.save("", name, text)
}

// SaveStatus is the note beside the file name.
func (a *App) SaveStatus() string {
	switch {
	case a.Files.Current == "" && a.Example != "":
		return "example: edit it to make your own copy"
	case a.Files.Current == "":
		return "not saved"
	case a.Files.Status == "saving":
		return "saving…"
	case a.Files.Status == "saved":
		return "saved in this browser"
	}
	return a.Files.Status
}

// NewModel starts an empty model.
func (a *App) NewModel() {
	a.setModel(uniqueName(untitled, a.Files.List, ""), "")
	a.Example = ""
	a.Files.Open = false
	editorGoTo(1, 1)
}

// OpenFilePicker lets the user pick .m files to open.
func (a *App) OpenFilePicker() { locus("files").Call("pick") }

// DownloadModel saves the editor's text as a file.
func (a *App) DownloadModel() { downloadText(a.Filename, editorText()) }

// ToggleFiles shows or hides the list of saved models.
func (a *App) ToggleFiles() {
	a.Files.Open = !a.Files.Open
	a.Files.Rename = ""
	if a.Files.Open {
		go a.refreshFiles()
	}
}

// OpenModel opens a saved model.
func (a *App) OpenModel(id string) {
	go func() {
		v, err := filesCall("get", id)
		var m struct{ ID, Name, Text string }
		if err == nil {
			err = json.Unmarshal([]byte(v.String()), &m)
		}
		a.post(func() bool {
			if err != nil {
				a.Notice = Notice{"error", "That model could not be opened: " + err.Error()}
				return true
			}
			a.setModel(m.Name, m.Text)
			a.Files.Current, a.Files.Saved, a.Files.Status = m.ID, m.Text, "saved"
			a.lastSource = m.Text
			filesSetCurrent(m.ID)
			a.Files.Open = false
			return true
		})
	}()
}

// StartRename shows the name box of a model.
func (a *App) StartRename(id string) { a.Files.Rename = id }

// Rename is the rename box's change handler.
func (a *App) Rename(id string, event vugu.DOMEvent) {
	name := modelName(event.PropString("target", "value"))
	name = uniqueName(name, a.Files.List, id)
	a.Files.Rename = ""
	if id == a.Files.Current {
		a.Filename = name
	}
	go func() {
		_, err := filesCall("rename", id, name)
		if err != nil {
			a.post(func() bool { a.Notice = Notice{"error", "Rename failed: " + err.Error()}; return true })
		}
		a.refreshFiles()
	}()
}

// RenameKey cancels renaming on Escape.
func (a *App) RenameKey(event vugu.DOMEvent) {
	if event.PropString("key") == "Escape" {
		a.Files.Rename = ""
	}
}

// DuplicateModel saves a copy of a model under a new name.
func (a *App) DuplicateModel(id string) {
	go func() {
		v, err := filesCall("get", id)
		var m struct{ ID, Name, Text string }
		if err == nil {
			err = json.Unmarshal([]byte(v.String()), &m)
		}
		if err == nil {
			name := uniqueName(strings.TrimSuffix(m.Name, ".m")+"-copy.m", a.Files.List, "")
			_, err = filesCall("save", "", name, m.Text)
		}
		if err != nil {
			a.post(func() bool { a.Notice = Notice{"error", "Duplicate failed: " + err.Error()}; return true })
		}
		a.refreshFiles()
	}()
}

// DeleteModel removes a saved model; the editor keeps its text as an
// unsaved model if it was the one open.
func (a *App) DeleteModel(id string) {
	if id == a.Files.Current {
		a.Files.Current = ""
		a.Files.Saved = editorText()
		filesSetCurrent("")
	}
	go func() {
		if _, err := filesCall("remove", id); err != nil {
			a.post(func() bool { a.Notice = Notice{"error", "Delete failed: " + err.Error()}; return true })
		}
		a.refreshFiles()
	}()
}
