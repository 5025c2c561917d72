// An example slide deck that drives embedded lessons by postMessage (see
// README.md, "Slides drive it"). Its keys move the slides; on a slide that
// embeds a lesson they step the lesson first, from its data-from step up
// to its data-until step, as fragments, and then move on. Escape inside a
// lesson hands the keyboard back here. The next slide's lesson loads
// while a slide is read, so that it is ready when its slide is shown.
(() => {
  "use strict";
  const slides = [...document.querySelectorAll(".slide")];
  const states = new Map(); // each lesson's frame, its last state
  let at = 0;

  const lessonOf = (i) => slides[i] && slides[i].querySelector("iframe.lesson");
  const send = (frame, message) => frame.contentWindow.postMessage(Object.assign({ spacetime: 1 }, message), "*");

  function show(i) {
    at = Math.max(0, Math.min(slides.length - 1, i));
    slides.forEach((s, j) => { s.hidden = j !== at; });
    const frame = lessonOf(at);
    load(frame);
    if (frame && !states.has(frame)) frame.loadingSince = Date.now(); // (keys wait from now)
    history.replaceState(null, "", "#" + (at + 1));
    window.focus();
    preload();
  }

  // A lesson's frame loads while the slide before it is read, so that it
  // is ready when the lecturer gets there: a lesson's start holds the
  // page's thread for a second or two (this deck and its lessons are of
  // one origin, so they share it), which is better spent while a slide
  // is read than when its lesson is wanted. One at a time: the next
  // slide's lesson, once the one on screen (if any) is ready.
  function load(frame) {
    if (frame && !frame.getAttribute("src")) {
      frame.src = frame.dataset.src;
      frame.loadingSince = Date.now();
    }
  }

  let preloading = 0;
  function preload() {
    const here = lessonOf(at);
    if (here && !states.has(here)) return; // again when it says it is ready
    const next = lessonOf(at + 1);
    clearTimeout(preloading);
    if (next && !next.getAttribute("src")) preloading = setTimeout(() => load(next), 1000);
  }

  // Keys pressed while a slide's lesson loads are the lesson's: kept, and
  // applied when it says it is ready, rather than moving past its slide
  // (more than its slide has steps for do move on).
  const queued = new Map(); // each loading lesson's frame, the steps asked

  function next() {
    const frame = lessonOf(at), st = frame && states.get(frame);
    if (frame && !st && Date.now() - (frame.loadingSince || 0) < 8000) {
      // (a lesson that has not loaded in 8 s no longer holds the keys)
      const q = (queued.get(frame) || 0) + 1, room = (+frame.dataset.until || Infinity) - (+frame.dataset.from || 0);
      if (q <= room) {
        queued.set(frame, q);
        return;
      }
    }
    if (st && st.step < Math.min(+frame.dataset.until || st.steps, st.steps)) {
      send(frame, { do: "next" });
    } else {
      show(at + 1);
    }
  }

  function prev() {
    const frame = lessonOf(at), st = frame && states.get(frame);
    if (frame && !st && queued.get(frame) > 0) {
      queued.set(frame, queued.get(frame) - 1);
      return;
    }
    if (st && st.step > (+frame.dataset.from || 0)) {
      send(frame, { do: "prev" });
    } else {
      show(at - 1);
    }
  }

  window.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const go = { ArrowRight: next, PageDown: next, " ": next, ArrowLeft: prev, PageUp: prev,
      Home: () => show(0), End: () => show(slides.length - 1) }[e.key];
    if (go) {
      e.preventDefault();
      go();
    }
  });

  window.addEventListener("message", (e) => {
    const d = e.data;
    if (!d || d.spacetime !== 1) return;
    const frame = [...states.keys(), ...document.querySelectorAll("iframe.lesson")].find((f) => f.contentWindow === e.source);
    if (!frame) return;
    if (d.event === "state") {
      const q = !states.has(frame) && queued.get(frame);
      states.set(frame, d);
      queued.delete(frame);
      if (q) {
        const last = Math.min(+frame.dataset.until || d.steps, d.steps);
        const step = Math.max(+frame.dataset.from || 0, Math.min(last, d.step + q));
        states.set(frame, Object.assign({}, d, { step })); // until the lesson says it is there
        send(frame, { do: "goto", step });
      }
      const status = frame.parentElement.querySelector(".status");
      if (status) status.textContent = `step ${d.step} / ${d.steps}: ${d.caption || ""}`;
      if (frame === lessonOf(at)) preload();
    } else if (d.event === "escape") {
      window.focus();
    }
  });

  show((parseInt(location.hash.slice(1), 10) || 1) - 1);
})();
