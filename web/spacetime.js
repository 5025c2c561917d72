// Spacetime's canvas painter. Go lays out each diagram and hands over one
// Float32Array of shapes per frame (see app/diagram/encode.go: 10 numbers a
// shape) plus the texts they index; this file only paints, at most once per
// canvas and animation frame, scaled by devicePixelRatio so it is sharp on
// a projector.
// A page may hold several canvases (panes, topology views): each keeps its
// own latest picture and its own size observer.
(function () {
  "use strict";
  const STRIDE = 10;
  const OP_LINE = 1, OP_CIRCLE = 2, OP_RECT = 3, OP_TEXT = 4, OP_CROSS = 5, OP_DIAMOND = 6, OP_TRIANGLE = 7;
  const ARROW = 1, DASHED = 2, BOLD = 4, HOLLOW = 8, OUTLINE = 16, SOLID = 32, FAINT = 64;
  const pending = new Map(); // canvas → its latest picture, not yet painted
  let scheduled = false;
  const paintedNow = new Set(); // canvases painted at once since the last animation frame
  let clearing = false; // a frame is asked for to empty paintedNow
  let taskFrame = null; // the pictures painted at once in this task: one frame
  const observers = new Map(); // canvas → {observer, onWindow}

  function paintAll() {
    scheduled = false;
    const all = Array.from(pending.values());
    pending.clear();
    frame(all);
  }

  // frame paints pictures, and counts them as one frame: the frame's script
  // time is every canvas it painted.
  function frame(pictures) {
    const t0 = performance.now();
    for (const p of pictures) paint(p);
    window.spacetimeFrames = (window.spacetimeFrames || 0) + 1;
    window.spacetimeLastPaintEnd = performance.now();
    window.spacetimeLastFrameMs = window.spacetimeLastPaintEnd - t0;
    if (window.spacetimeFrames === 1) performance.mark("spacetime-first-diagram");
  }

  // paintNow paints a picture at once. Pictures painted at once in one task
  // (the lanes and the process graph of one step) count as one frame.
  function paintNow(p) {
    paintedNow.add(p.canvas);
    if (!clearing) {
      clearing = true;
      requestAnimationFrame(() => { paintedNow.clear(); clearing = false; });
    }
    const t0 = performance.now();
    const first = taskFrame === null;
    if (first) {
      taskFrame = { ms: 0 };
      window.spacetimeLastDrawCall = t0;
      queueMicrotask(() => { taskFrame = null; });
    }
    paint(p);
    const end = performance.now();
    taskFrame.ms += end - t0;
    if (first) window.spacetimeFrames = (window.spacetimeFrames || 0) + 1;
    window.spacetimeLastPaintEnd = end;
    window.spacetimeLastFrameMs = taskFrame.ms;
    if (first && window.spacetimeFrames === 1) performance.mark("spacetime-first-diagram");
  }

  function paint(p) {
    const cv = p.canvas;
    // a picture for a file has its own size and scale (spacetime.png)
    const dpr = p.ratio || window.devicePixelRatio || 1;
    const w = p.width || cv.clientWidth, h = p.height;
    if (cv.width !== Math.round(w * dpr) || cv.height !== Math.round(h * dpr)) {
      cv.width = Math.round(w * dpr);
      cv.height = Math.round(h * dpr);
      // a canvas that fills its stage has its height from the page
      if (cv.dataset.fill !== "true") cv.style.height = h + "px";
    }
    const g = cv.getContext("2d");
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.fillStyle = p.palette[p.palette.length - 1];
    g.fillRect(0, 0, w, h);
    g.lineCap = "round";
    const b = p.buf, texts = p.texts, pal = p.palette;
    const same = (i, j) => b[j] === b[i] && b[j + 5] === b[i + 5] && b[j + 6] === b[i + 6] && b[j + 7] === b[i + 7] && b[j + 8] === b[i + 8];
    // Shapes drawn alike come in runs (the layout groups them): each run is
    // one path, stroked or filled once, which keeps 10,000 shapes fast.
    for (let i = 0; i + STRIDE <= b.length;) {
      let j = i + STRIDE;
      while (j + STRIDE <= b.length && same(i, j)) j += STRIDE;
      const op = b[i], color = pal[b[i + 5]], width = b[i + 6], flags = b[i + 7], align = b[i + 8];
      switch (op) {
        case OP_LINE:
          g.strokeStyle = color;
          g.lineWidth = width;
          g.setLineDash(flags & DASHED ? [6, 4] : []);
          g.beginPath();
          for (let k = i; k < j; k += STRIDE) { g.moveTo(b[k + 1], b[k + 2]); g.lineTo(b[k + 3], b[k + 4]); }
          g.stroke();
          if (flags & ARROW) {
            const s = 7 + width;
            g.fillStyle = color;
            g.beginPath();
            for (let k = i; k < j; k += STRIDE) {
              const x1 = b[k + 1], y1 = b[k + 2], x2 = b[k + 3], y2 = b[k + 4], a = Math.atan2(y2 - y1, x2 - x1);
              g.moveTo(x2, y2);
              g.lineTo(x2 + s * Math.cos(a + Math.PI * 0.85), y2 + s * Math.sin(a + Math.PI * 0.85));
              g.lineTo(x2 + s * Math.cos(a - Math.PI * 0.85), y2 + s * Math.sin(a - Math.PI * 0.85));
              g.closePath();
            }
            g.fill();
          }
          break;
        case OP_CIRCLE:
          g.setLineDash(flags & DASHED ? [3, 2] : []);
          g.beginPath();
          for (let k = i; k < j; k += STRIDE) { g.moveTo(b[k + 1] + b[k + 3], b[k + 2]); g.arc(b[k + 1], b[k + 2], b[k + 3], 0, 2 * Math.PI); }
          if (flags & OUTLINE) {
            g.strokeStyle = color; g.lineWidth = width; g.stroke();
          } else if (flags & HOLLOW) {
            g.fillStyle = pal[pal.length - 1]; g.fill();
            g.strokeStyle = color; g.lineWidth = width; g.stroke();
          } else { g.fillStyle = color; g.fill(); }
          break;
        case OP_RECT:
          if (flags & HOLLOW) {
            g.setLineDash(flags & DASHED ? [4, 3] : []); g.strokeStyle = color; g.lineWidth = width;
            for (let k = i; k < j; k += STRIDE) g.strokeRect(b[k + 1], b[k + 2], b[k + 3], b[k + 4]);
            break;
          }
          g.globalAlpha = flags & SOLID ? 1 : flags & FAINT ? 0.12 : 0.55; g.fillStyle = color;
          for (let k = i; k < j; k += STRIDE) g.fillRect(b[k + 1], b[k + 2], b[k + 3], b[k + 4]);
          g.globalAlpha = 1;
          break;
        case OP_TRIANGLE:
          g.fillStyle = color;
          g.beginPath();
          for (let k = i; k < j; k += STRIDE) {
            const x = b[k + 1], y = b[k + 2], r = b[k + 3];
            g.moveTo(x, y - r); g.lineTo(x + r, y + r * 0.8); g.lineTo(x - r, y + r * 0.8); g.closePath();
          }
          g.fill();
          break;
        case OP_CROSS:
          g.setLineDash([]); g.strokeStyle = color; g.lineWidth = width;
          g.beginPath();
          for (let k = i; k < j; k += STRIDE) {
            const x = b[k + 1], y = b[k + 2], r = b[k + 3];
            g.moveTo(x - r, y - r); g.lineTo(x + r, y + r); g.moveTo(x - r, y + r); g.lineTo(x + r, y - r);
          }
          g.stroke();
          break;
        case OP_DIAMOND:
          g.fillStyle = color;
          g.beginPath();
          for (let k = i; k < j; k += STRIDE) {
            const x = b[k + 1], y = b[k + 2], r = b[k + 3];
            g.moveTo(x, y - r); g.lineTo(x + r, y); g.lineTo(x, y + r); g.lineTo(x - r, y); g.closePath();
          }
          g.fill();
          break;
        case OP_TEXT:
          g.fillStyle = color;
          g.font = (flags & BOLD ? "bold " : "") + (p.font || 12) + "px system-ui, sans-serif";
          g.textAlign = align === 1 ? "center" : align === 2 ? "right" : "left";
          // a halo of paper around each letter keeps text readable over lines
          g.setLineDash([]); g.lineJoin = "round"; g.strokeStyle = pal[pal.length - 1]; g.lineWidth = (p.font || 12) / 4;
          for (let k = i; k < j; k += STRIDE) {
            const t = texts[b[k + 9]];
            g.strokeText(t, b[k + 1], b[k + 2]);
            g.fillText(t, b[k + 1], b[k + 2]);
          }
          break;
      }
      i = j;
    }
    cv.dataset.frames = String((+cv.dataset.frames || 0) + 1);
  }

  // Keys a presenter's remote can trust. A remote sends PageDown, PageUp,
  // arrows and Space: they must step the lesson whatever was clicked last.
  // A control used with the pointer (a picker, a checkbox, a button, the
  // scrubber) hands the keyboard back to the page at once; one reached
  // with the keyboard keeps it, for those who navigate so. Menus and the
  // scenario text keep their inputs.
  let byPointer = false;
  document.addEventListener("pointerdown", () => { byPointer = true; }, true);
  document.addEventListener("keydown", () => { byPointer = false; }, true);
  function handBack(e) {
    const t = e.target;
    if (!byPointer || !t || !t.matches || t.closest(".menu, .loader")) return;
    if (t.matches("select, button, input[type=checkbox], input[type=range]")) {
      setTimeout(() => { if (document.activeElement === t) t.blur(); }, 0);
    }
  }
  document.addEventListener("change", handBack, true);
  document.addEventListener("click", handBack, true);

  // A file dropped on the page is handed to the client (spacetime.dropped,
  // set while it runs) instead of the browser opening it in the tab.
  const carriesFiles = (e) => e.dataTransfer && [...e.dataTransfer.types].includes("Files");
  document.addEventListener("dragover", (e) => { if (carriesFiles(e) && window.spacetime.dropped) e.preventDefault(); });
  document.addEventListener("drop", (e) => {
    if (!carriesFiles(e) || !window.spacetime.dropped) return;
    e.preventDefault();
    if (e.dataTransfer.files.length > 0) window.spacetime.dropped(e.dataTransfer.files[0]);
  });

  // "/" brings the keyboard to the lesson finder (as on many sites), at
  // once, so that the "/" itself is not typed into it.
  document.addEventListener("keydown", (e) => {
    if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target, f = document.getElementById("find");
    if (!f || (t && t.matches && t.matches("input:not([type=checkbox]):not([type=range]), textarea, [contenteditable]"))) return;
    e.preventDefault();
    f.focus();
  }, true);

  // Keys pressed before the client is ready are kept (a bounded few) and
  // handed to it when it is (takeEarlyKeys), not lost.
  const lessonKeys = new Set(["ArrowRight", "ArrowLeft", "PageDown", "PageUp", "Home", "End", " ", "+", "=", "-", "_", "0", "f", "F", "c", "C"]);
  const early = [];
  function keepEarly(e) {
    if (e.ctrlKey || e.metaKey || e.altKey || !lessonKeys.has(e.key)) return;
    const tag = e.target && e.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    e.preventDefault();
    if (early.length < 64) {
      early.push({ key: e.key, shiftKey: e.shiftKey, ctrlKey: false, metaKey: false, altKey: false, target: document.body, preventDefault() {} });
    }
  }
  window.addEventListener("keydown", keepEarly);

  // Menus stay inside the window: placed beside what was clicked (their
  // data-x, data-y within the stage), moved in from an edge, and scrolled
  // when taller than the window; never cut by a frame (they are fixed).
  function fitMenu(m) {
    const host = m.parentElement && m.parentElement.getBoundingClientRect();
    if (!host) return;
    const x = host.left + (+m.dataset.x || 0), y = host.top + (+m.dataset.y || 0);
    m.style.left = x + "px"; m.style.top = y + "px";
    const r = m.getBoundingClientRect(), pad = 8;
    const left = Math.max(pad, Math.min(x, window.innerWidth - pad - r.width));
    const top = Math.max(pad, Math.min(y, window.innerHeight - pad - r.height));
    if (left !== x) m.style.left = left + "px";
    if (top !== y) m.style.top = top + "px";
  }
  const fitAll = () => document.querySelectorAll(".menu").forEach(fitMenu);
  new MutationObserver(fitAll).observe(document.documentElement, { childList: true, subtree: true });
  window.addEventListener("resize", fitAll);
  window.addEventListener("scroll", fitAll, true);

  // A framed page (a slide) hands the keyboard back to its slides with
  // Escape when nothing of its own is open, so that the deck's keys move
  // the slides again; its parent hears of it (see app/ui/slides.go).
  const framed = window.parent !== window;
  if (framed) {
    document.documentElement.classList.add("framed");
    const focused = () => document.documentElement.classList.toggle("has-focus", document.hasFocus());
    window.addEventListener("focus", focused);
    window.addEventListener("blur", focused);
    focused();
    document.addEventListener("keydown", (e) => {
      if (e.key !== "Escape" || document.querySelector(".menu, .notice")) return;
      if (document.activeElement && document.activeElement.blur) document.activeElement.blur();
      window.parent.postMessage({ spacetime: 1, event: "escape" }, "*");
      try { window.parent.focus(); } catch (_) { /* the deck may refuse */ }
    });
  }

  window.spacetime = {
    // framed says the page is in a frame (a slide).
    framed() { return framed; },
    // tellParent posts a JSON message to the page's parent, at origin
    // ("" for any).
    tellParent(text, origin) {
      if (framed) window.parent.postMessage(JSON.parse(text), origin || "*");
    },
    // tip shows text beside the pointer at (x, y), kept within the
    // window, or hides the tip for "".
    tip(text, x, y) {
      let t = document.getElementById("tip");
      if (!t) {
        t = document.createElement("div");
        t.id = "tip"; t.className = "tip"; t.setAttribute("role", "tooltip");
        document.body.appendChild(t);
      }
      t.hidden = !text;
      if (!text) return;
      t.textContent = text;
      const lab = document.querySelector(".lab"); // the page's text size
      if (lab) t.style.fontSize = getComputedStyle(lab).getPropertyValue("--cap");
      const r = t.getBoundingClientRect(), pad = 8;
      let left = x + 14, top = y + 18;
      if (left + r.width > window.innerWidth - pad) left = Math.max(pad, x - 14 - r.width);
      if (top + r.height > window.innerHeight - pad) top = Math.max(pad, y - 12 - r.height);
      t.style.left = left + "px"; t.style.top = top + "px";
    },
    // takeEarlyKeys hands over the keys pressed while the client loaded,
    // and stops keeping them.
    takeEarlyKeys() {
      window.removeEventListener("keydown", keepEarly);
      return early.splice(0);
    },
    // draw paints the shapes on canvas at the next animation frame; only
    // each canvas's latest call before a frame is painted.
    draw(canvas, buf, texts, palette, height, font) {
      const p = { canvas, buf, texts, palette, height, font };
      // A canvas's first picture, and its first one since the last frame
      // (a step, a click), are painted at once: the learner is waiting.
      // More for the same canvas before the next frame (scrubbing,
      // dragging) wait for it, and only the latest is painted.
      if (!canvas.dataset.frames || (!paintedNow.has(canvas) && !pending.has(canvas))) {
        paintNow(p);
        return;
      }
      window.spacetimeLastDrawCall = performance.now();
      pending.set(canvas, p);
      if (!scheduled) { scheduled = true; requestAnimationFrame(paintAll); }
    },
    // observe calls onSize(width, viewportHeight, canvasId, height,
    // viewportWidth) whenever the canvas changes size (window resized,
    // scrollbar shown) or the window does; observe(canvas, null) stops, and
    // observe(null) stops them all.
    observe(canvas, onSize) {
      const stop = (cv) => {
        const o = observers.get(cv);
        if (!o) return;
        o.observer.disconnect();
        window.removeEventListener("resize", o.onWindow);
        observers.delete(cv);
      };
      if (!canvas) { Array.from(observers.keys()).forEach(stop); return; }
      stop(canvas);
      if (!onSize) return;
      const report = () => onSize(canvas.clientWidth, window.innerHeight, canvas.id, canvas.clientHeight, window.innerWidth);
      const observer = new ResizeObserver(report);
      observer.observe(canvas);
      window.addEventListener("resize", report);
      observers.set(canvas, { observer, onWindow: report });
    },
    // download saves text as a file.
    // png paints shapes as draw does, on a canvas of their own at scale
    // times their size, and saves it as a PNG file.
    png(buf, texts, palette, width, height, font, scale, name) {
      const canvas = document.createElement("canvas");
      canvas.dataset.fill = "true";
      paint({ canvas, buf, texts, palette, height, font, width, ratio: scale });
      canvas.toBlob((blob) => { if (blob) window.spacetime.download(name, "image/png", blob); }, "image/png");
    },
    download(name, mime, text) {
      const url = URL.createObjectURL(new Blob([text], { type: mime }));
      const a = document.createElement("a");
      a.href = url; a.download = name; document.body.appendChild(a); a.click(); a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    },
  };
})();
