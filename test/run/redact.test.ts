// The redactor (src/core/redact.ts): any piece of 12 or more characters of a key, its base64
// (of KEY, of `Bearer KEY`, embedded at each byte alignment, standard and URL-safe) and its
// URL-encoded form become [REDACTED]; shorter pieces and other text are left alone; a short key
// is replaced whole; redacting happens before a cut.
import { describe, expect, it } from 'vitest';
import { StimkitError } from '../../src/core/errors.js';
import { Redactor, redactedError } from '../../src/core/redact.js';
import { keyForms, piecesOf } from '../helpers/hostile-server.js';

const KEY = 'sk-proj-Abc123XyZ987-qwertyuiopASDFGHJKL0123456789';
const r = new Redactor([KEY]);
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('Redactor', () => {
  it('redacts every piece of 12 or more characters of the key, and only those', () => {
    expect(r.redact(`Incorrect API key provided: ${KEY.slice(0, 14)}…`)).toBe(
      'Incorrect API key provided: [REDACTED]…',
    );
    expect(r.redact(`a ${KEY.slice(0, 40)} b`)).toBe('a [REDACTED] b');
    expect(r.redact(`a ${KEY.slice(17, 29)} b`)).toBe('a [REDACTED] b');
    expect(r.redact(`x ${KEY.slice(0, 11)} y`)).toBe(`x ${KEY.slice(0, 11)} y`);
    expect(r.redact(`${KEY}${KEY}`)).toBe('[REDACTED]');
    expect(r.redact('nothing secret here, not at all')).toBe('nothing secret here, not at all');
  });

  it('redacts the base64 of KEY, Bearer KEY and user:KEY at any alignment', () => {
    for (const prefix of ['', 'Bearer ', 'user:', 'us:', 'u:']) {
      for (const enc of [b64(`${prefix}${KEY}`), b64(`${prefix}${KEY}`).replace(/\+/g, '-')]) {
        const out = r.redact(`auth ${enc} end`);
        for (const p of piecesOf(enc.slice(8, -4))) expect(out, prefix).not.toContain(p);
      }
    }
    const text = keyForms(KEY).join(' | ');
    const out = r.redact(text);
    for (const p of keyForms(KEY).flatMap(piecesOf)) expect(out).not.toContain(p);
  });

  it('redacts a short key whole, and redacts before it cuts', () => {
    expect(new Redactor(['abcd1234']).redact('k=abcd1234;')).toBe('k=[REDACTED];');
    const cut = r.cut(`${'r'.repeat(170)}Bearer ${KEY}`, 200);
    expect(cut).toBe(`${'r'.repeat(170)}Bearer [REDACTED]`);
    const long = r.cut(`${'r'.repeat(195)}${KEY}`, 200);
    expect(long).toBe(`${'r'.repeat(195)}[REDA…[truncated, 205 chars]`);
  });
});

describe('redactedError', () => {
  it('redacts what an error quotes of a server: message, fix and every problem field', () => {
    const err = StimkitError.fromProblem({
      code: 'E_BATCH_MODEL',
      file: 'out.jsonl',
      line: 3,
      field: `response.body.model`,
      message: `the answers name another model`,
      expected: '"m"',
      got: `"served-${KEY}"`,
      fix: `check ${KEY}`,
    });
    const red = redactedError(err, r) as StimkitError;
    expect(red).toBeInstanceOf(StimkitError);
    expect(red.code).toBe('E_BATCH_MODEL');
    expect(red.message).toContain('got "served-[REDACTED]"');
    expect(red.problems[0]).toMatchObject({
      line: 3,
      got: '"served-[REDACTED]"',
      fix: 'check [REDACTED]',
    });
    expect(JSON.stringify([red.message, red.problems])).not.toContain(KEY.slice(0, 12));
    const plain = redactedError(new TypeError(`bad ${KEY}`), r) as Error;
    expect([plain.name, plain.message]).toEqual(['TypeError', 'bad [REDACTED]']);
  });
});
