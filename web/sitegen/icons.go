// This file draws the app icons: a small state graph, three states and the
// transitions between them, one state marked as a violation.

package main

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
)

type icon struct {
	name     string
	size     int
	maskable bool // full-bleed background, content inside the 80% safe zone
}

var icons = []icon{
	{"icon-192.png", 192, false},
	{"icon-512.png", 512, false},
	{"icon-maskable-512.png", 512, true},
}

func writeIcons(public string) error {
	dir := filepath.Join(public, "icons")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, ic := range icons {
		var b bytes.Buffer
		if err := png.Encode(&b, drawIcon(ic.size, ic.maskable)); err != nil {
			return err
		}
		if err := writeIfChanged(filepath.Join(dir, ic.name), b.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

// shape is a signed distance (in units of the icon's size, negative inside)
// and the color it paints.
type shape struct {
	dist func(x, y float64) float64
	c    color.NRGBA
}

func circle(cx, cy, r float64) func(x, y float64) float64 {
	return func(x, y float64) float64 { return math.Hypot(x-cx, y-cy) - r }
}

func segment(ax, ay, bx, by, w float64) func(x, y float64) float64 {
	return func(x, y float64) float64 {
		dx, dy := bx-ax, by-ay
		t := math.Max(0, math.Min(1, ((x-ax)*dx+(y-ay)*dy)/(dx*dx+dy*dy)))
		return math.Hypot(x-(ax+t*dx), y-(ay+t*dy)) - w/2
	}
}

func roundedSquare(r float64) func(x, y float64) float64 {
	return func(x, y float64) float64 {
		qx, qy := math.Abs(x-0.5)-(0.5-r), math.Abs(y-0.5)-(0.5-r)
		return math.Hypot(math.Max(qx, 0), math.Max(qy, 0)) + math.Min(math.Max(qx, qy), 0) - r
	}
}

func drawIcon(size int, maskable bool) *image.NRGBA {
	bg := color.NRGBA{0x25, 0x63, 0xeb, 0xff}
	white := color.NRGBA{0xff, 0xff, 0xff, 0xff}
	amber := color.NRGBA{0xf5, 0x9e, 0x0b, 0xff}
	edge := color.NRGBA{0xdb, 0xea, 0xfe, 0xff}
	// The graph, in a unit square; scaled to the safe zone when maskable.
	s, o := 1.0, 0.0
	if maskable {
		s, o = 0.8, 0.1
	}
	p := func(v float64) float64 { return o + s*v }
	ax, ay := p(0.30), p(0.30)
	bx, by := p(0.70), p(0.36)
	cx, cy := p(0.45), p(0.72)
	w := s * 0.055
	shapes := []shape{
		{segment(ax, ay, bx, by, w), edge},
		{segment(bx, by, cx, cy, w), edge},
		{segment(ax, ay, cx, cy, w), edge},
		{circle(ax, ay, s*0.11), white},
		{circle(bx, by, s*0.11), white},
		{circle(cx, cy, s*0.11), amber},
	}
	background := roundedSquare(0.18)
	if maskable {
		background = func(x, y float64) float64 { return -1 }
	}
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	px := 1 / float64(size)
	for iy := 0; iy < size; iy++ {
		for ix := 0; ix < size; ix++ {
			x, y := (float64(ix)+0.5)*px, (float64(iy)+0.5)*px
			a := coverage(background(x, y), px)
			if a == 0 {
				continue
			}
			r, g, b := float64(bg.R), float64(bg.G), float64(bg.B)
			for _, sh := range shapes {
				if k := coverage(sh.dist(x, y), px); k > 0 {
					r += (float64(sh.c.R) - r) * k
					g += (float64(sh.c.G) - g) * k
					b += (float64(sh.c.B) - b) * k
				}
			}
			img.SetNRGBA(ix, iy, color.NRGBA{uint8(r + 0.5), uint8(g + 0.5), uint8(b + 0.5), uint8(a*255 + 0.5)})
		}
	}
	return img
}

// coverage turns a signed distance into how much of a pixel is inside.
func coverage(d, px float64) float64 {
	return math.Max(0, math.Min(1, 0.5-d/px))
}
