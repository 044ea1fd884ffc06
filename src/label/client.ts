/**
 * The rater app's script, served as a file (/static/label.js; the Content-Security-Policy allows no
 * inline script): saves every answer the moment it is given (retrying until the server confirms),
 * shows the DT follow-up when D4 is TRUE, the interface-language switch, and the keyboard.
 *
 * Keys: no documented key may change an answer the rater did not aim at. With single-key shortcuts
 * on, the arrow keys are the app's (trial and question navigation) even on a focused radio button,
 * whose own arrow handling would otherwise move the answer; letters work with Caps Lock. With them
 * off (WCAG 2.1.4, remembered in the rater file), the page handles no key at all and the browser's
 * own keys apply. Plain ES2020, no build step; settings come from the JSON block `#cfg`.
 */
const SAVING = String.raw`
  var statusEl = document.getElementById('status');
  var pending = {};
  var inflight = 0;
  var failed = false;
  function setStatus(kind) {
    statusEl.className = kind === 'err' ? 'err' : '';
    statusEl.textContent = kind === 'saving' ? cfg.words.saving : kind === 'err' ? cfg.words.notSaved : cfg.words.saved + ' ' + new Date().toLocaleTimeString(document.documentElement.lang);
  }
  function showProgress(p) {
    var bar = document.getElementById('progress');
    if (bar) { bar.value = p.complete; bar.max = p.total; }
    var t = document.getElementById('progress-text');
    if (t) t.textContent = p.complete + ' / ' + p.total;
  }
  // Saves go out one at a time, in the order they were given (D4 before its DT follow-up).
  var queue = Promise.resolve();
  function send(field) {
    inflight++;
    setStatus('saving');
    var p = queue.then(function () {
      if (!(field in pending)) return;
      var value = pending[field];
      delete pending[field];
      return post('/api/answer', { item: cfg.item, field: field, value: value }).then(function (j) {
        failed = false;
        showProgress(j.progress);
        document.body.dataset.complete = String(j.complete);
      }).catch(function () {
        failed = true;
        if (!(field in pending)) pending[field] = value;
        setTimeout(function () { if (field in pending) send(field); }, 2000);
      });
    }).then(function () {
      inflight--;
      if (failed) setStatus('err');
      else if (inflight === 0 && Object.keys(pending).length === 0) setStatus('ok');
    });
    queue = p;
    return p;
  }
  function save(field, value) { pending[field] = value; return send(field); }
  flush = function () {
    var fields = Object.keys(pending);
    return Promise.all(fields.map(send)).then(function () {
      return new Promise(function (resolve) {
        (function wait() { if (inflight === 0) resolve(); else setTimeout(wait, 30); })();
      });
    });
  };
  document.getElementById('answers').addEventListener('submit', function (e) { e.preventDefault(); });
  var dt = document.getElementById('dt');
  function syncDt() {
    var d4 = document.querySelector('input[name=d4]:checked');
    var on = !!d4 && d4.value === 'true';
    dt.hidden = !on;
    // Off: unchecked, and no strategy waits to be resent (the server refuses one without D4 = TRUE).
    if (!on) dt.querySelectorAll('input').forEach(function (c) { c.checked = false; delete pending[c.name]; });
  }
  document.querySelectorAll('fieldset.q input[type=radio]').forEach(function (r) {
    r.addEventListener('change', function () {
      save(r.name, r.value);
      if (r.name === 'd4') syncDt();
    });
  });
  dt.querySelectorAll('input[type=checkbox]').forEach(function (c) {
    c.addEventListener('change', function () { save(c.name, c.checked); });
  });
  var note = document.getElementById('note');
  var noteTimer = null;
  note.addEventListener('input', function () {
    clearTimeout(noteTimer);
    pending.note = note.value;
    setStatus('saving');
    noteTimer = setTimeout(function () { if ('note' in pending) send('note'); }, 400);
  });
  note.addEventListener('blur', function () { if ('note' in pending) send('note'); });
  window.addEventListener('pagehide', function () { if ('note' in pending) send('note'); });
  window.addEventListener('beforeunload', function (e) { if (failed || Object.keys(pending).length) { flush(); e.preventDefault(); } });
`;

const KEYS = String.raw`
  // The sticky column starts below the header, whatever its height.
  var bar = document.getElementById('bar');
  function barHeight() { document.documentElement.style.setProperty('--bar', bar.offsetHeight + 'px'); }
  barHeight();
  window.addEventListener('resize', barHeight);

  // The column of image, prompt and response stays in view only while the whole of it fits the
  // window; a longer one is in the page's own flow (page scrolling shows all of it), and a cue says
  // the response goes on below until its end has been in view.
  var col = document.querySelector('.col-view');
  function fit() {
    col.classList.add('fits');
    var used = col.lastElementChild.getBoundingClientRect().bottom - col.getBoundingClientRect().top;
    col.classList.toggle('fits', used <= window.innerHeight - bar.offsetHeight - 16);
  }
  fit();
  window.addEventListener('resize', fit);
  col.querySelectorAll('img').forEach(function (img) { img.addEventListener('load', fit); });
  var more = document.getElementById('more');
  new IntersectionObserver(function (seen) {
    var end = seen[seen.length - 1];
    more.hidden = end.isIntersecting || end.boundingClientRect.top < 0;
  }).observe(document.getElementById('response-end'));

  // Image zoom: fitted <-> full resolution.
  var box = document.getElementById('imgbox');
  function zoom() { if (box) { box.classList.toggle('full'); fit(); } }
  if (box) {
    box.addEventListener('click', zoom);
    box.addEventListener('keydown', function (e) { if (e.key === 'Enter' || e.key === ' ') { zoom(); e.preventDefault(); e.stopPropagation(); } });
  }

  // The highlighted question.
  var qs = Array.prototype.slice.call(document.querySelectorAll('fieldset.q'));
  var cur = 0;
  for (var i = 0; i < qs.length; i++) { if (!qs[i].querySelector('input:checked')) { cur = i; break; } if (i === qs.length - 1) cur = 0; }
  // Moved by a key or a click, the highlight takes the focus along (the fieldset itself, so that no
  // answer is chosen by it): the next key acts on the question that is both highlighted and focused.
  function highlight(i, scroll) {
    cur = Math.max(0, Math.min(qs.length - 1, i));
    qs.forEach(function (q, k) { q.classList.toggle('current', k === cur); });
    if (scroll) {
      if (!qs[cur].contains(document.activeElement)) qs[cur].focus({ preventScroll: true });
      qs[cur].scrollIntoView({ block: 'nearest' });
    }
  }
  highlight(cur, false);
  qs.forEach(function (q, k) { q.addEventListener('focusin', function () { highlight(k, false); }); });
  // A clicked answer moves the highlight on, as a key answer does (so T then means the next question).
  qs.forEach(function (q, k) {
    q.querySelectorAll('input[type=radio]').forEach(function (input) {
      input.addEventListener('click', function () { if (k < qs.length - 1) highlight(k + 1, true); });
    });
  });
  var hint = document.getElementById('hint');
  var hintTimer = null;
  function say(text) {
    hint.textContent = text;
    clearTimeout(hintTimer);
    hintTimer = setTimeout(function () { hint.textContent = ''; }, 6000);
  }
  function answer(value) {
    var input = qs[cur].querySelector('input[value="' + value + '"]');
    if (!input) { say(cfg.words.naNotHere.replace('{q}', qs[cur].dataset.title)); return; }
    hint.textContent = '';
    input.checked = true;
    input.dispatchEvent(new Event('change'));
    if (cur < qs.length - 1) highlight(cur + 1, true);
  }
  var leaving = false;
  function go(href) {
    if (!href || leaving) return;
    leaving = true;
    flush().then(function () { location.href = href; });
  }
  document.querySelectorAll('nav.items a').forEach(function (a) {
    a.addEventListener('click', function (e) { e.preventDefault(); go(a.getAttribute('href')); });
  });
  var keys = {
    t: function () { answer('true'); }, f: function () { answer('false'); }, a: function () { answer('na'); },
    j: function () { highlight(cur + 1, true); }, k: function () { highlight(cur - 1, true); },
    ArrowDown: function () { highlight(cur + 1, true); }, ArrowUp: function () { highlight(cur - 1, true); },
    e: function () { note.focus(); },
    n: function () { go(cfg.nav.next); }, ArrowRight: function () { go(cfg.nav.next); },
    p: function () { go(cfg.nav.prev); }, ArrowLeft: function () { go(cfg.nav.prev); },
    u: function () { go(cfg.nav.open); }, z: zoom, '?': openHelp
  };
  // Only the keys that move the highlight repeat while held.
  var REPEATING = ['j', 'k', 'ArrowDown', 'ArrowUp'];
  ['1', '2', '3'].forEach(function (n) {
    keys[n] = function () {
      if (dt.hidden) return;
      var c = dt.querySelector('input[name=dt' + n + ']');
      c.checked = !c.checked; c.dispatchEvent(new Event('change'));
    };
  });
  document.addEventListener('keydown', function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented || help.open) return;
    var t = e.target;
    if (t === note) { if (e.key === 'Escape') { note.blur(); e.preventDefault(); } return; }
    if (!keysOn || (t && (t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || (t.tagName === 'INPUT' && t.type === 'text')))) return;
    var k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    // The zoomed image scrolls with the arrow keys while it has focus.
    if (t === box && k.indexOf('Arrow') === 0) return;
    if (!Object.prototype.hasOwnProperty.call(keys, k)) return;
    // Also stops a focused radio button's own arrow keys from moving the answer.
    e.preventDefault();
    // A held key repeats: a held answer key answers once (not the next questions too) and a held →
    // moves one trial (not on through the trials that load while it is down).
    if (e.repeat && REPEATING.indexOf(k) < 0) return;
    keys[k]();
  });
`;

const PREFS = String.raw`
  function post(url, body) {
    return fetch(url, {
      method: 'POST', keepalive: true,
      headers: { 'Content-Type': 'application/json', 'X-Stimkit-Token': cfg.token },
      body: JSON.stringify(body)
    }).then(function (r) {
      if (!r.ok) throw new Error('HTTP ' + r.status);
      return r.json();
    });
  }
  document.querySelectorAll('button[data-lang]').forEach(function (b) {
    b.addEventListener('click', function () {
      flush().then(function () { return post('/api/prefs', { lang: b.dataset.lang }); })
        .then(function () { location.reload(); });
    });
  });
  var help = document.getElementById('help');
  function openHelp() { if (help && !help.open) help.showModal(); }
  if (help) {
    document.getElementById('help-open').addEventListener('click', openHelp);
    document.getElementById('help-close').addEventListener('click', function () { help.close(); });
  }
  var keysOn = cfg.shortcuts !== false;
  var toggles = document.querySelectorAll('input.keys-toggle');
  toggles.forEach(function (box) {
    box.addEventListener('change', function () {
      keysOn = box.checked;
      toggles.forEach(function (o) { o.checked = keysOn; });
      document.getElementById('keys-off').hidden = keysOn;
      post('/api/prefs', { shortcuts: keysOn });
    });
  });
`;

/** The whole script: the language switch everywhere; saving and keys on the label screen. */
export const LABEL_SCRIPT = `
(function () {
  'use strict';
  var cfg = JSON.parse(document.getElementById('cfg').textContent);
  var flush = function () { return Promise.resolve(); };
${PREFS}
  if (!document.getElementById('answers')) return;
${SAVING}
${KEYS}
  window.stimkitFlush = flush;
})();
`;
