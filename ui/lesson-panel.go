package ui

// LessonPanel lists the models of a lesson opened from a short link, and
// the lesson being made with "Add to lesson".
type LessonPanel struct {
	App *App
}

// Count says how many models the lesson has.
func (c *LessonPanel) Count() string {
	if c.App.Lesson == nil {
		return ""
	}
	return plural(len(c.App.Lesson.Items), "model")
}

// ItemClass marks the model in the editor.
func (c *LessonPanel) ItemClass(i int) string {
	if i == c.App.LessonAt {
		return "lesson-item current"
	}
	return "lesson-item"
}

// Current is aria-current for the model in the editor.
func (c *LessonPanel) Current(i int) string {
	if i == c.App.LessonAt {
		return "true"
	}
	return "false"
}
