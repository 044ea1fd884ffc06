/**
 * `<think>…</think>` blocks of a reasoning model's reply, dropped in linear time. The expression
 * `/<think>[\s\S]*?<\/think>/gi` scans to the end of the text from every opener that has no
 * closer (a reply of 500,000 `<think>` takes hours); this gives exactly what it gives with
 * `replace`: once an opener finds no closer after it, no later opener can.
 */

/**
 * `text.replace(/<think>[\s\S]*?<\/think>/gi, by)`, in one pass.
 *
 * @example
 * replaceThinkBlocks('<think>hmm</think>Agree', ' '); // ' Agree'
 */
export function replaceThinkBlocks(text: string, by: string): string {
  const open = /<think>/gi;
  const close = /<\/think>/gi;
  let out = '';
  let from = 0;
  for (;;) {
    open.lastIndex = from;
    const o = open.exec(text);
    if (!o) break;
    close.lastIndex = o.index + o[0].length;
    const c = close.exec(text);
    if (!c) break;
    out += text.slice(from, o.index) + by;
    from = c.index + c[0].length;
  }
  return out + text.slice(from);
}
