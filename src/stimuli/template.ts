/**
 * `{slot}` templates shared by topics (`{subject}`, `{outcome_a}`, `{outcome_b}`,
 * `{outcome_a.part}`) and prompt cards (`{subject}`). Braces are reserved: a `{` or `}` that is not
 * part of a well-formed slot is an error, so a typo such as `{outcome_a` cannot render silently.
 */

/** A piece of a parsed template: literal text or a named slot. */
export type Segment = { kind: 'text'; text: string } | { kind: 'slot'; name: string };

/** Slot names: a letter or `_`, then letters, digits or `_`; optionally `.part`. */
const SLOT = /\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?)\}/y;

/** The result of parsing: the segments, or the first syntax error with its character offset. */
export type ParsedTemplate =
  { ok: true; segments: Segment[] } | { ok: false; offset: number; message: string };

/** Split a template into literal text and slots. */
export function parseTemplate(template: string): ParsedTemplate {
  const segments: Segment[] = [];
  let text = '';
  let i = 0;
  while (i < template.length) {
    const ch = template[i]!;
    if (ch === '{') {
      SLOT.lastIndex = i;
      const m = SLOT.exec(template);
      if (!m) {
        return {
          ok: false,
          offset: i,
          message: `"{" at character ${i + 1} does not open a slot such as {subject} or {outcome_a}`,
        };
      }
      if (text) segments.push({ kind: 'text', text });
      text = '';
      segments.push({ kind: 'slot', name: m[1]! });
      i += m[0].length;
    } else if (ch === '}') {
      return { ok: false, offset: i, message: `"}" at character ${i + 1} closes no slot` };
    } else {
      text += ch;
      i++;
    }
  }
  if (text) segments.push({ kind: 'text', text });
  return { ok: true, segments };
}

/** The slot names of a parsed template, in order of appearance (repeats kept). */
export function slotNames(segments: Segment[]): string[] {
  return segments.flatMap((s) => (s.kind === 'slot' ? [s.name] : []));
}

/** Fill every slot with `value(name)`; throws if a slot has no value (callers validate first). */
export function fillTemplate(
  segments: Segment[],
  value: (name: string) => string | undefined,
): string {
  let out = '';
  for (const s of segments) {
    if (s.kind === 'text') out += s.text;
    else {
      const v = value(s.name);
      if (v === undefined) throw new Error(`no value for slot {${s.name}}`);
      out += v;
    }
  }
  return out;
}
