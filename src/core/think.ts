/**
 * `<think>…</think>` blocks of a reasoning model's reply, dropped or split off in linear time. The expression
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

/** A reply split at its leading `<think>` block: the reasoning inside and the answer after it. */
export interface ThinkSplit {
  reasoning: string;
  answer: string;
}

/**
 * Split off a `<think>…</think>` block that opens the reply (after any whitespace): the inside is
 * the reasoning, the rest the answer, as is. An opener without a closer (a reply cut while the
 * model was still thinking) makes all that follows it reasoning and the answer empty. null when
 * the reply does not open with `<think>`. One search for the closer: linear in the text.
 *
 * @example
 * splitLeadingThink('<think>hmm</think>Agree'); // {reasoning: 'hmm', answer: 'Agree'}
 */
export function splitLeadingThink(text: string): ThinkSplit | null {
  const open = /^\s*<think>/i.exec(text);
  if (!open) return null;
  const close = /<\/think>/gi;
  close.lastIndex = open[0].length;
  const c = close.exec(text);
  if (!c) return { reasoning: text.slice(open[0].length), answer: '' };
  return {
    reasoning: text.slice(open[0].length, c.index),
    answer: text.slice(c.index + c[0].length),
  };
}
