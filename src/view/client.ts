/**
 * The viewer's one script (served as /static/view.js): Enter on a filter applies the filters, as
 * it does in a text field; on the list, J and K move to the next and previous row (its trial link
 * takes the focus, so Enter opens it). The pages work without it.
 */
export const VIEW_SCRIPT = String.raw`
(function () {
  'use strict';
  var form = document.querySelector('form.filters');
  if (!form) return;
  form.addEventListener('keydown', function (e) {
    if (e.key !== 'Enter' || e.target.tagName !== 'SELECT') return;
    e.preventDefault();
    form.requestSubmit();
  });
  var rows = Array.prototype.slice.call(document.querySelectorAll('tr.row'));
  var cur = -1;
  document.addEventListener('keydown', function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    var t = e.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA')) return;
    var k = e.key.toLowerCase();
    if ((k !== 'j' && k !== 'k') || rows.length === 0) return;
    e.preventDefault();
    cur = Math.max(0, Math.min(rows.length - 1, cur + (k === 'j' ? 1 : -1)));
    rows.forEach(function (r, i) { r.classList.toggle('current', i === cur); });
    var link = rows[cur].querySelector('a');
    if (link) link.focus({ preventScroll: true });
    rows[cur].scrollIntoView({ block: 'nearest' });
  });
})();
`;
