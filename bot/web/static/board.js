// Tabula's game page: pan and zoom the board (mouse, keyboard, pinch), step through the history (buttons, the
// slider, the arrow keys) without reloading, and follow the game live (server-sent events).  No library.
"use strict";
(function () {
  const body = document.body;
  const path = body.dataset.path;
  let state = JSON.parse(body.dataset.state || "{}");
  const viewer = document.getElementById("viewer");
  const frame = document.getElementById("frame");
  const slider = document.getElementById("slider");
  const where = document.getElementById("where");
  const liveLine = document.getElementById("live");
  const links = {
    first: document.getElementById("go-first"), previous: document.getElementById("go-previous"),
    next: document.getElementById("go-next"), last: document.getElementById("go-last"),
  };

  // --- pan and zoom ------------------------------------------------------------------------------------
  let img = document.getElementById("board");
  let scale = 1, x = 0, y = 0, fitted = true;
  const pointers = new Map();
  let pinch = null;

  function fitScale() {
    if (!img || !img.naturalWidth) return 1;
    return Math.min(viewer.clientWidth / img.naturalWidth, viewer.clientHeight / img.naturalHeight);
  }
  function clamp() {
    const w = img.naturalWidth * scale, h = img.naturalHeight * scale;
    const vw = viewer.clientWidth, vh = viewer.clientHeight;
    x = w <= vw ? (vw - w) / 2 : Math.min(0, Math.max(vw - w, x));
    y = h <= vh ? (vh - h) / 2 : Math.min(0, Math.max(vh - h, y));
  }
  function apply() {
    if (!img) return;
    clamp();
    img.style.transform = "translate(" + x + "px," + y + "px) scale(" + scale + ")";
    viewer.dataset.scale = scale.toFixed(3);
  }
  function fit() {
    if (img && img.naturalWidth && window.innerWidth < 1000) {
      // one column: the viewer as tall as the board at this width (no grey bands), at most most of the screen
      const tall = viewer.clientWidth * img.naturalHeight / img.naturalWidth;
      viewer.style.height = Math.round(Math.min(tall, window.innerHeight * 0.78)) + "px";
    } else {
      viewer.style.height = "";
    }
    scale = fitScale(); fitted = true; apply();
  }
  function zoomAt(factor, cx, cy) {
    if (!img) return;
    const min = fitScale(), max = Math.max(3, min * 2);
    const next = Math.min(max, Math.max(min, scale * factor));
    x = cx - (cx - x) * (next / scale);
    y = cy - (cy - y) * (next / scale);
    scale = next; fitted = scale <= min + 1e-6; apply();
  }
  function centre() { return [viewer.clientWidth / 2, viewer.clientHeight / 2]; }
  function pan(dx, dy) { x += dx; y += dy; fitted = false; apply(); }

  viewer.addEventListener("wheel", function (e) {
    e.preventDefault();
    const r = viewer.getBoundingClientRect();
    zoomAt(e.deltaY < 0 ? 1.2 : 1 / 1.2, e.clientX - r.left, e.clientY - r.top);
  }, { passive: false });
  viewer.addEventListener("pointerdown", function (e) {
    viewer.setPointerCapture(e.pointerId);
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    viewer.classList.add("dragging");
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = { d: Math.hypot(a[0] - b[0], a[1] - b[1]), scale: scale };
    }
  });
  viewer.addEventListener("pointermove", function (e) {
    const before = pointers.get(e.pointerId);
    if (!before) return;
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    if (pointers.size === 2 && pinch) {
      const [a, b] = [...pointers.values()];
      const r = viewer.getBoundingClientRect();
      const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
      zoomAt((pinch.scale * d / pinch.d) / scale, (a[0] + b[0]) / 2 - r.left, (a[1] + b[1]) / 2 - r.top);
    } else if (pointers.size === 1) {
      pan(e.clientX - before[0], e.clientY - before[1]);
    }
  });
  function release(e) {
    pointers.delete(e.pointerId);
    if (pointers.size < 2) pinch = null;
    if (!pointers.size) viewer.classList.remove("dragging");
  }
  viewer.addEventListener("pointerup", release);
  viewer.addEventListener("pointercancel", release);
  viewer.addEventListener("dblclick", function (e) {
    const r = viewer.getBoundingClientRect();
    zoomAt(2, e.clientX - r.left, e.clientY - r.top);
  });
  viewer.addEventListener("keydown", function (e) {
    const step = 60;
    const keys = {
      ArrowLeft: () => pan(step, 0), ArrowRight: () => pan(-step, 0), ArrowUp: () => pan(0, step),
      ArrowDown: () => pan(0, -step), "+": () => zoomAt(1.25, ...centre()), "=": () => zoomAt(1.25, ...centre()),
      "-": () => zoomAt(0.8, ...centre()), "0": fit,
    };
    if (keys[e.key]) { e.preventDefault(); e.stopPropagation(); keys[e.key](); }
  });
  document.getElementById("zoom-in").addEventListener("click", () => zoomAt(1.5, ...centre()));
  document.getElementById("zoom-out").addEventListener("click", () => zoomAt(1 / 1.5, ...centre()));
  document.getElementById("zoom-fit").addEventListener("click", fit);
  window.addEventListener("resize", function () { if (fitted) fit(); else apply(); });
  function watchImage() {
    if (!img) return;
    if (img.complete && img.naturalWidth) fit(); else img.addEventListener("load", fit, { once: true });
  }
  watchImage();

  // --- history -------------------------------------------------------------------------------------------
  let busy = null, following = true;

  function show(next, replace) {
    state = next;
    if (state.board) {
      if (!img) {
        img = document.createElement("img");
        img.id = "board"; img.draggable = false;
        viewer.appendChild(img);
      }
      if (img.getAttribute("src") !== state.board) {
        const keep = { scale: scale, x: x, y: y, fitted: fitted };
        img.addEventListener("load", function () {
          if (keep.fitted) fit(); else { scale = keep.scale; x = keep.x; y = keep.y; apply(); }
        }, { once: true });
        img.src = state.board;
      }
      img.alt = state.alt;
    }
    frame.innerHTML = state.html;
    slider.max = String(state.count - 1);
    slider.value = String(state.index);
    where.textContent = state.where;
    for (const name of ["first", "previous", "next", "last"]) {
      links[name].href = "?step=" + state[name];
      const off = (name === "first" || name === "previous") ? state.index === 0 : state.index === state.count - 1;
      links[name].classList.toggle("off", off);
      links[name].setAttribute("aria-disabled", off ? "true" : "false");
    }
    if (state.statusText) document.getElementById("game-status").textContent = state.statusText;
    following = state.step === state.last;
    body.dataset.step = String(state.step);
    body.dataset.last = String(state.last);
    const url = following ? location.pathname : location.pathname + "?step=" + state.step;
    if (replace) history.replaceState(null, "", url); else history.pushState(null, "", url);
  }

  function go(number, replace, index) {
    // a step by its log entry, by its place among the steps (the slider), or the newest
    const query = index !== undefined ? "?at=" + index : number === null ? "" : "?step=" + number;
    const asked = fetch(path + "/step" + query, { credentials: "same-origin", cache: "no-store" })
      .then((r) => { if (!r.ok) throw new Error(String(r.status)); return r.json(); });
    busy = asked;
    return asked.then(function (next) { if (busy === asked) show(next, replace); })
      .catch(function (err) {
        if (busy !== asked) return;
        // too many steps asked too fast: ask again in a moment; anything else: load the step as a page
        if (err.message === "429") setTimeout(function () { if (busy === asked) go(number, replace, index); }, 1500);
        else location.href = path + query;
      });
  }
  for (const name of ["first", "previous", "next", "last"]) {
    links[name].addEventListener("click", function (e) {
      e.preventDefault();
      go(name === "last" ? null : state[name]);
    });
  }
  let sliding = null;
  slider.addEventListener("input", function () {
    // while the slider is dragged, only where it rests is asked for
    clearTimeout(sliding);
    sliding = setTimeout(slid, 150);
  });
  function slid() {
    const target = Number(slider.value);
    if (target === state.index) return;
    if (target === 0) go(state.first);
    else if (target === state.count - 1) go(null);
    else if (target === state.index + 1) go(state.next);
    else if (target === state.index - 1) go(state.previous);
    else go(null, false, target);
  }
  document.addEventListener("keydown", function (e) {
    if (e.target === viewer || e.target === slider || e.altKey || e.ctrlKey || e.metaKey) return;
    const keys = { ArrowLeft: () => go(state.previous), ArrowRight: () => go(state.next),
                   Home: () => go(state.first), End: () => go(null) };
    if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
  });
  window.addEventListener("popstate", function () {
    const n = new URLSearchParams(location.search).get("step");
    go(n === null ? null : Number(n), true);
  });

  // --- live ----------------------------------------------------------------------------------------------
  function setLive(on, newer) {
    liveLine.classList.toggle("on", !!on);
    liveLine.textContent = newer ? liveLine.dataset.newer : on ? liveLine.dataset.live : liveLine.dataset.offline;
  }
  if (window.EventSource && state.status === "active") {
    const source = new EventSource(path + "/live");
    source.addEventListener("open", () => setLive(true));
    source.addEventListener("hello", function (e) {
      // the stream starts from the game as it is now: a move made since the page was drawn is fetched at once
      if (following && JSON.parse(e.data).version !== state.version) go(null, true);
    });
    const personal = path.indexOf("/s/") >= 0;
    source.addEventListener("moved", function (e) {
      const news = JSON.parse(e.data);
      // a public page is sent the newest step itself; a personal page asks for its own
      if (following && !personal && news.html !== undefined) show(news, true);
      else if (following) go(null, true);
      else setLive(true, true);
      if (news.status !== "active") source.close();
    });
    source.addEventListener("error", function () {
      if (source.readyState === EventSource.CLOSED) setLive(false);
    });
  }
  show(Object.assign({}, state, { html: frame.innerHTML }), true);
})();
