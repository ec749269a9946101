// This file implements the Share button and opening shared models: a
// fragment link for small models, a short link from the edge backend for
// large ones (or always, or never, by the user's choice), the fallback to
// the fragment when the server cannot be reached, and lessons.

package ui

import (
	"errors"
	"fmt"
	"strings"

	"github.com/vugu/vugu"

	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/wasm/protocol"
)

// shareModeKey is where the share mode is remembered.
const shareModeKey = "locus.shareMode"

// ShareBoxState is what the share box shows besides the link.
type ShareBoxState struct {
	Busy    bool   // a short link is being made
	Kind    string // "short" or "inlink": what ShareURL is
	Message string // why the link is not what the mode asked for
	Mode    string // the user's ShareMode ("" until read)
	Open    bool
	seq     int // the latest request: answers to older ones are dropped
}

// ShareMode is the user's choice of link.
func (a *App) ShareMode() string {
	if a.ShareBox.Mode == "" {
		a.ShareBox.Mode = ShareAuto
		saved := storageGet(shareModeKey)
		for _, m := range ShareModes {
			if saved == m.Value {
				a.ShareBox.Mode = saved
			}
		}
	}
	return a.ShareBox.Mode
}

// SetShareMode is the mode menu's change handler: it remembers the choice
// and makes the link again in the new way.
func (a *App) SetShareMode(event vugu.DOMEvent) {
	v := event.PropString("target", "value")
	for _, m := range ShareModes {
		if m.Value == v {
			a.ShareBox.Mode = v
			storageSet(shareModeKey, v)
			if a.ShareBox.Open && !a.ShareBox.Busy {
				a.Share()
			}
		}
	}
}

// Share is the Share button's handler.
func (a *App) Share() {
	a.shareModel(Shared{Filename: a.Filename, Source: editorText(), Options: a.options()})
}

func (a *App) shareModel(s Shared) {
	root := appRoot()
	frag, fragErr := EncodeShare(s)
	inLink := root + "#" + frag
	a.ShareBox = ShareBoxState{Mode: a.ShareMode(), Open: true, seq: a.ShareBox.seq + 1}
	a.ShareURL = ""
	a.ShareCopied = false
	if !WantShortLink(a.ShareMode(), len(inLink), fragErr == nil) {
		if fragErr != nil {
			a.ShareBox.Open = false
			a.Notice = Notice{"error", sentence(fragErr.Error())}
			return
		}
		a.showLink(inLink, "inlink", "")
		setAddress(inLink)
		return
	}
	body, err := ShareRequest(s)
	if err != nil {
		a.Notice = Notice{"error", "The model could not be shared: " + err.Error()}
		return
	}
	a.ShareBox.Busy = true
	a.shortLink(root, string(body), func(id string, err error) {
		if err == nil {
			a.showLink(root+"s/"+id, "short", "")
			setAddress(root + "#s=" + id)
			return
		}
		if fragErr == nil {
			a.showLink(inLink, "inlink", sentence(fmt.Sprintf("%v, so this link holds the whole model instead.", err)))
			setAddress(inLink)
			return
		}
		a.ShareBox.Open = false
		a.Notice = Notice{"error", sentence(fmt.Sprintf("this model is too large for a link that holds it, and %v. Share the .m file instead.", err))}
	})
}

// shortLink posts body to the edge and calls done (with the render lock
// held) with the id, or with an error that reads "a short link could not
// be made (why)".
func (a *App) shortLink(root, body string, done func(id string, err error)) {
	a.ShareBox.seq++
	seq := a.ShareBox.seq
	go func() {
		status, text, err := httpDo("POST", root+"api/share", body)
		id := ""
		switch {
		case err != nil && !online():
			err = errors.New("a short link could not be made because you are offline")
		case err != nil:
			err = errors.New("a short link could not be made because the Locus server could not be reached")
		case status == 404 || status == 405 || status == 501:
			err = errors.New("this copy of Locus has no server for short links")
		default:
			id, err = ShareResponse(status, text)
			if err != nil {
				err = fmt.Errorf("a short link could not be made (%v)", err)
			} else {
				// The sharer's own copy: the request decodes like the stored
				// document, and keeps the link working here offline.
				cacheSharedDocument(root+"api/share/"+id, body)
			}
		}
		a.post(func() bool {
			if seq != a.ShareBox.seq {
				return false // the user shared again meanwhile
			}
			a.ShareBox.Busy = false
			done(id, err)
			return true
		})
	}()
}

// showLink shows url in the share box and tries to put it on the clipboard.
func (a *App) showLink(url, kind, message string) {
	a.ShareURL = url
	a.ShareBox.Kind = kind
	a.ShareBox.Message = message
	a.ShareBox.Open = true
	a.CopyShare()
}

// CopyShare is the Copy button's handler.
func (a *App) CopyShare() {
	url := a.ShareURL
	if url == "" {
		return
	}
	go func() {
		ok := copyText(url)
		a.post(func() bool { a.ShareCopied = ok && a.ShareURL == url; return true })
	}()
}

// CloseShare hides the share box.
func (a *App) CloseShare() {
	a.ShareBox.seq++ // a link still being made is not wanted any more
	a.ShareURL = ""
	a.ShareBox.Open = false
	a.ShareBox.Message = ""
}

// applyShared puts a shared model and its options in the page; from says
// where it came from ("a share link").
func (a *App) applyShared(s Shared, note, from string) {
	a.setModel(s.Filename, s.Source)
	a.Algorithm = orDefault(s.Options.Algorithm, protocol.DefaultAlgorithm)
	a.Symmetry = orDefault(s.Options.Symmetry, job.Symmetries[0])
	a.Deadlock = orDefault(s.Options.Deadlock, job.Deadlocks[0])
	a.MemoryMB = int(s.Options.MemoryBytes / protocol.MiB)
	if note != "" {
		a.Notice = Notice{"warning", sentence(note)}
	} else {
		a.Notice = Notice{"info", "Opened the model " + s.Filename + " from " + from + "."}
	}
	if a.Engines != nil {
		a.adoptEngines(a.Engines) // an algorithm this version lacks gives way to the default
	}
}

// openShortLink opens the short link in the page's address, if it holds
// one, and reports whether it does (the document arrives later).
func (a *App) openShortLink() bool {
	root := appRoot()
	id, ok, err := ShortLinkID(pageHref(), root)
	if !ok {
		return false
	}
	if err != nil {
		a.Notice = Notice{"error", sentence(err.Error())}
		return false
	}
	a.Notice = Notice{"info", "Opening the shared model…"}
	go func() {
		url := root + "api/share/" + id
		status, text, err := httpDo("GET", url, "")
		if err != nil {
			status = 0
		}
		var (
			s      Shared
			note   string
			lesson *Lesson
			derr   error
		)
		if status == 200 {
			if s, note, lesson, derr = DecodeSharedDocument([]byte(text)); derr == nil {
				cacheSharedDocument(url, text)
			}
		}
		a.post(func() bool {
			switch {
			case status != 200:
				a.Notice = Notice{"error", FetchProblem(status, !online())}
			case derr != nil:
				a.Notice = Notice{"error", sentence(derr.Error())}
			case lesson != nil:
				lesson.ID = id
				a.openLesson(lesson)
			default:
				a.applyShared(s, note, "a short link")
			}
			return true
		})
	}()
	return true
}

// openLesson shows a lesson's list and opens its first model.
func (a *App) openLesson(l *Lesson) {
	a.Lesson = l
	a.OpenLessonItem(0)
	if a.Notice.Kind == "info" {
		a.Notice = Notice{"info", fmt.Sprintf("Opened the lesson %q: %s. Pick one from the list.", l.Title, plural(len(l.Items), "model"))}
	}
}

// OpenLessonItem opens the i-th model of the lesson.
func (a *App) OpenLessonItem(i int) {
	if a.Lesson == nil || i < 0 || i >= len(a.Lesson.Items) {
		return
	}
	it := a.Lesson.Items[i]
	a.applyShared(it.Shared, it.Note, "the lesson")
	a.LessonAt = i
}

// CloseLesson hides the lesson's list.
func (a *App) CloseLesson() { a.Lesson = nil }

// AddToLesson adds the model in the editor to the lesson being made.
func (a *App) AddToLesson() {
	title := strings.TrimSuffix(a.Filename, ".m")
	a.Draft = append(a.Draft, LessonItem{Title: title, Shared: Shared{Filename: a.Filename, Source: editorText(), Options: a.options()}})
	a.Notice = Notice{"info", fmt.Sprintf("Added %s to the lesson (%s so far).", a.Filename, plural(len(a.Draft), "model"))}
}

// RemoveFromLesson drops the i-th model of the lesson being made.
func (a *App) RemoveFromLesson(i int) {
	if i >= 0 && i < len(a.Draft) {
		a.Draft = append(a.Draft[:i:i], a.Draft[i+1:]...)
	}
}

// SetLessonTitle and SetLessonItemTitle are the lesson editor's inputs.
func (a *App) SetLessonTitle(event vugu.DOMEvent) {
	a.DraftTitle = event.PropString("target", "value")
}

func (a *App) SetLessonItemTitle(i int, event vugu.DOMEvent) {
	if i >= 0 && i < len(a.Draft) {
		a.Draft[i].Title = event.PropString("target", "value")
	}
}

// ShareLesson makes a short link for the lesson being made. A lesson has
// no fragment form: it needs the server.
func (a *App) ShareLesson() {
	if len(a.Draft) == 0 {
		return
	}
	body, err := LessonRequest(a.DraftTitle, a.Draft)
	if err != nil {
		a.Notice = Notice{"error", "The lesson could not be shared: " + err.Error()}
		return
	}
	root := appRoot()
	a.ShareBox = ShareBoxState{Mode: a.ShareMode(), Open: true, Busy: true, seq: a.ShareBox.seq + 1}
	a.ShareURL = ""
	a.shortLink(root, string(body), func(id string, err error) {
		if err != nil {
			a.ShareBox.Open = false
			a.Notice = Notice{"error", sentence(fmt.Sprintf("%v; a lesson needs the server, so try again when it can be reached.", err))}
			return
		}
		a.showLink(root+"s/"+id, "short", "")
		a.Notice = Notice{"info", "The lesson's link is ready: " + plural(len(a.Draft), "model") + " in one link."}
	})
}

// ClearLesson drops the lesson being made.
func (a *App) ClearLesson() { a.Draft, a.DraftTitle = nil, "" }
