/**
 * The viewer's one script (served as /static/view.js): Enter on a filter applies the filters, as
 * it does in a text field. The pages work without it.
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
})();
`;
