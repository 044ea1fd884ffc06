/**
 * The label screen's small inline script: saves every answer the moment it is given (retrying
 * until the server confirms), shows the DT follow-up when D4 is TRUE, and the keyboard shortcuts.
 * Plain ES2020, no build step; the page's configuration comes from a JSON script element.
 */
export const LABEL_SCRIPT = String.raw`
(function () {
  'use strict';
  var cfg = JSON.parse(document.getElementById('cfg').textContent);
  var statusEl = document.getElementById('status');
  var pending = {};
  var inflight = 0;
  var failed = false;
  function setStatus(kind) {
    statusEl.className = kind === 'err' ? 'err' : '';
    statusEl.textContent = kind === 'saving' ? cfg.words.saving : kind === 'err' ? cfg.words.notSaved : cfg.words.saved + ' ' + new Date().toLocaleTimeString();
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
      return fetch('/api/answer', {
        method: 'POST', keepalive: true,
        headers: { 'Content-Type': 'application/json', 'X-Stimkit-Token': cfg.token },
        body: JSON.stringify({ item: cfg.item, field: field, value: value })
      }).then(function (r) {
        if (!r.ok) throw new Error('HTTP ' + r.status);
        return r.json();
      }).then(function (j) {
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
  function flush() {
    var fields = Object.keys(pending);
    return Promise.all(fields.map(send)).then(function () {
      return new Promise(function (resolve) {
        (function wait() { if (inflight === 0) resolve(); else setTimeout(wait, 30); })();
      });
    });
  }
  var dt = document.getElementById('dt');
  function syncDt() {
    var d4 = document.querySelector('input[name=d4]:checked');
    var on = !!d4 && d4.value === 'true';
    dt.hidden = !on;
    if (!on) dt.querySelectorAll('input').forEach(function (c) { c.checked = false; });
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

  // Image zoom: fitted <-> full resolution.
  var box = document.getElementById('imgbox');
  function zoom() { if (box) box.classList.toggle('full'); }
  if (box) {
    box.addEventListener('click', zoom);
    box.addEventListener('keydown', function (e) { if (e.key === 'Enter' || e.key === ' ') { zoom(); e.preventDefault(); e.stopPropagation(); } });
  }

  // The highlighted question.
  var qs = Array.prototype.slice.call(document.querySelectorAll('fieldset.q'));
  var cur = 0;
  for (var i = 0; i < qs.length; i++) { if (!qs[i].querySelector('input:checked')) { cur = i; break; } if (i === qs.length - 1) cur = 0; }
  function highlight(i, scroll) {
    cur = Math.max(0, Math.min(qs.length - 1, i));
    qs.forEach(function (q, k) { q.classList.toggle('current', k === cur); });
    if (scroll) qs[cur].scrollIntoView({ block: 'nearest' });
  }
  highlight(cur, false);
  qs.forEach(function (q, k) { q.addEventListener('focusin', function () { highlight(k, false); }); });
  function answer(value) {
    var input = qs[cur].querySelector('input[value="' + value + '"]');
    if (!input) return;
    input.checked = true;
    input.dispatchEvent(new Event('change'));
    if (cur < qs.length - 1) highlight(cur + 1, true);
  }
  function go(href) { if (!href) return; flush().then(function () { location.href = href; }); }
  document.querySelectorAll('nav.items a').forEach(function (a) {
    a.addEventListener('click', function (e) { e.preventDefault(); go(a.getAttribute('href')); });
  });
  var help = document.getElementById('help');
  document.addEventListener('keydown', function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    var t = e.target;
    if (t === note) { if (e.key === 'Escape') { note.blur(); e.preventDefault(); } return; }
    if (t && (t.tagName === 'INPUT' && t.type === 'text' || t.tagName === 'SELECT')) return;
    var k = e.key;
    if (t && (t.type === 'radio' || t === box) && k.indexOf('Arrow') === 0) return;
    var handled = true;
    if (k === 't' || k === 'T') answer('true');
    else if (k === 'f' || k === 'F') answer('false');
    else if (k === 'a' || k === 'A') answer('na');
    else if (k === 'ArrowDown' || k === 'j') highlight(cur + 1, true);
    else if (k === 'ArrowUp' || k === 'k') highlight(cur - 1, true);
    else if ((k === '1' || k === '2' || k === '3') && !dt.hidden) {
      var c = dt.querySelector('input[name=dt' + k + ']');
      c.checked = !c.checked; c.dispatchEvent(new Event('change'));
    }
    else if (k === 'e' || k === 'E') note.focus();
    else if (k === 'ArrowRight' || k === 'n') go(cfg.nav.next);
    else if (k === 'ArrowLeft' || k === 'p') go(cfg.nav.prev);
    else if (k === 'u' || k === 'U') go(cfg.nav.open);
    else if (k === 'z' || k === 'Z') zoom();
    else if (k === '?') help.hidden = !help.hidden;
    else handled = false;
    if (handled) e.preventDefault();
  });
  window.stimkitFlush = flush;
})();
`;
