//go:build cgo

// Command paintwatch times a window's first paint on an X display, for
// scripts/bench-window.sh: it waits until a top-level window named NAME is mapped, then reads
// the screen every few milliseconds (shared memory: no copy through the socket, ~2 ms a read)
// until it shows at least -colours distinct colours (a mapped window before its page paints
// is one flat colour, a painted page thousands). It prints, as milliseconds since the Unix
// epoch, one line each:
//
//	mapped MS           the window was seen mapped
//	blank MS COLOURS    the start of the last read before the paint
//	painted MS COLOURS  the end of the first read that shows the paint
//
// The paint happened between blank and painted (one read apart: a few ms).
package main

/*
#cgo pkg-config: x11 xext
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/extensions/XShm.h>

static int ignore_errors(Display *d, XErrorEvent *e) { return 0; }
static void quiet(void) { XSetErrorHandler(ignore_errors); }

// mapped_named returns 1 when a viewable child of the root is named name (WM_NAME or
// _NET_WM_NAME), searching two levels down (GTK's window is a child of the root without a
// window manager, a grandchild with one).
static int named(Display *d, Window w, Atom netname, Atom utf8, const char *name) {
	Atom type; int format; unsigned long n, after; unsigned char *prop = NULL; int hit = 0;
	if (XGetWindowProperty(d, w, netname, 0, 256, False, utf8, &type, &format, &n, &after, &prop) == Success && prop) {
		hit = strcmp((char *)prop, name) == 0;
		XFree(prop);
		if (hit) return 1;
	}
	char *wmname = NULL;
	if (XFetchName(d, w, &wmname) && wmname) {
		hit = strcmp(wmname, name) == 0;
		XFree(wmname);
	}
	return hit;
}
static int search(Display *d, Window w, Atom netname, Atom utf8, const char *name, int depth) {
	Window root, parent, *kids = NULL; unsigned int n = 0; int hit = 0;
	if (!XQueryTree(d, w, &root, &parent, &kids, &n)) return 0;
	for (unsigned int i = 0; i < n && !hit; i++) {
		XWindowAttributes a;
		if (!XGetWindowAttributes(d, kids[i], &a) || a.map_state != IsViewable) continue;
		if (named(d, kids[i], netname, utf8, name)) hit = 1;
		else if (depth > 0) hit = search(d, kids[i], netname, utf8, name, depth - 1);
	}
	if (kids) XFree(kids);
	return hit;
}
static int mapped_named(Display *d, const char *name) {
	Atom netname = XInternAtom(d, "_NET_WM_NAME", False), utf8 = XInternAtom(d, "UTF8_STRING", False);
	return search(d, DefaultRootWindow(d), netname, utf8, name, 1);
}

static XShmSegmentInfo shminfo;
static XImage *shot;

// shot_open makes a shared-memory image of the root window; 0 when the display cannot.
static int shot_open(Display *d) {
	int scr = DefaultScreen(d);
	if (!XShmQueryExtension(d)) return 0;
	shot = XShmCreateImage(d, DefaultVisual(d, scr), DefaultDepth(d, scr), ZPixmap, NULL, &shminfo,
		DisplayWidth(d, scr), DisplayHeight(d, scr));
	if (!shot) return 0;
	shminfo.shmid = shmget(IPC_PRIVATE, shot->bytes_per_line * shot->height, IPC_CREAT | 0600);
	if (shminfo.shmid < 0) return 0;
	shminfo.shmaddr = shot->data = shmat(shminfo.shmid, NULL, 0);
	shmctl(shminfo.shmid, IPC_RMID, NULL); // freed when both ends detach
	shminfo.readOnly = False;
	if (!XShmAttach(d, &shminfo)) return 0;
	XSync(d, False);
	return 1;
}

// colours reads the root window and counts its distinct colours (every second pixel of
// every second row), stopping at limit. seen is a bitset of 2^24 bits, cleared here.
static int colours(Display *d, unsigned char *seen, int limit) {
	if (!XShmGetImage(d, DefaultRootWindow(d), shot, 0, 0, AllPlanes)) return -1;
	int n = 0;
	unsigned int marked[4096]; int nmarked = 0;
	for (int y = 0; y < shot->height && n < limit; y += 2) {
		unsigned int *row = (unsigned int *)(shot->data + y * shot->bytes_per_line);
		for (int x = 0; x < shot->width && n < limit; x += 2) {
			unsigned int c = row[x] & 0xffffff;
			if (!(seen[c >> 3] & (1 << (c & 7)))) {
				seen[c >> 3] |= 1 << (c & 7);
				if (nmarked < 4096) marked[nmarked++] = c;
				n++;
			}
		}
	}
	for (int i = 0; i < nmarked; i++) seen[marked[i] >> 3] = 0;
	return n;
}
*/
import "C"

import (
	"flag"
	"fmt"
	"os"
	"time"
	"unsafe"
)

func main() {
	name := flag.String("name", "Mundaneum", "the window's title")
	limit := flag.Int("colours", 200, "distinct colours that make a painted screen")
	every := flag.Duration("every", 4*time.Millisecond, "pause between two reads")
	timeout := flag.Duration("timeout", 20*time.Second, "give up after")
	flag.Parse()
	if *limit > 4096 {
		fmt.Fprintln(os.Stderr, "paintwatch: -colours is at most 4096")
		os.Exit(2)
	}
	d := C.XOpenDisplay(nil)
	if d == nil {
		fmt.Fprintln(os.Stderr, "paintwatch: cannot open the display (DISPLAY unset?)")
		os.Exit(1)
	}
	C.quiet()
	if C.shot_open(d) == 0 {
		fmt.Fprintln(os.Stderr, "paintwatch: the display has no shared-memory images (MIT-SHM)")
		os.Exit(1)
	}
	cname := C.CString(*name)
	defer C.free(unsafe.Pointer(cname))
	ms := func() int64 { return time.Now().UnixMilli() }
	deadline := time.Now().Add(*timeout)
	fmt.Println("ready", ms())
	for C.mapped_named(d, cname) == 0 {
		if time.Now().After(deadline) {
			fmt.Fprintln(os.Stderr, "paintwatch: no window mapped")
			os.Exit(1)
		}
		time.Sleep(*every)
	}
	fmt.Println("mapped", ms())
	seen := (*C.uchar)(C.calloc(1<<21, 1))
	blank, blankColours := ms(), 0
	for {
		start := ms()
		n := int(C.colours(d, seen, C.int(*limit)))
		end := ms()
		if n < 0 {
			fmt.Fprintln(os.Stderr, "paintwatch: cannot read the screen")
			os.Exit(1)
		}
		if n >= *limit {
			fmt.Println("blank", blank, blankColours)
			fmt.Println("painted", end, n)
			return
		}
		blank, blankColours = start, n
		if time.Now().After(deadline) {
			fmt.Fprintln(os.Stderr, "paintwatch: the window did not paint")
			os.Exit(1)
		}
		time.Sleep(*every)
	}
}
