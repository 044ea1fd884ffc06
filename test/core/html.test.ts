import { describe, expect, it } from 'vitest';
import { Html, escapeHtml, html, safeUrl, trusted } from '../../src/core/html.js';

const HOSTILE = `<img src=x onerror="alert(1)"></script>'&`;

describe('html', () => {
  it('escapes every interpolated string, number and boolean', () => {
    const out = html`<p title="${HOSTILE}">${HOSTILE} ${3} ${true}</p>`.toString();
    expect(out).toBe(
      '<p title="&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&lt;/script&gt;&#39;&amp;">' +
        '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&lt;/script&gt;&#39;&amp; 3 true</p>',
    );
    expect(out).not.toContain('<img');
  });

  it('inserts Html as is and escapes the text inside arrays', () => {
    const rows = ['a<b', 'c'].map((t) => html`<li>${t}</li>`);
    expect(html`<ul>${rows}</ul>`.toString()).toBe('<ul><li>a&lt;b</li><li>c</li></ul>');
    expect(html`${['<x>', trusted('<y>')]}`.toString()).toBe('&lt;x&gt;<y>');
  });

  it('renders null, undefined and false as nothing (but 0 as 0)', () => {
    expect(html`[${null}${undefined}${false}${0}]`.toString()).toBe('[0]');
  });

  it('cannot be fooled by an object that looks like Html', () => {
    const fake = { markup: '<b>', toString: () => '<b>' } as unknown as string;
    expect(html`${fake}`.toString()).toBe('&lt;b&gt;');
    expect(html`${trusted('<b>')}`).toBeInstanceOf(Html);
  });

  it('escapeHtml escapes the five characters', () => {
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
    expect(escapeHtml(null)).toBe('');
  });

  it('shows bidi overrides, embeddings and isolates as text, so they cannot reorder what is read', () => {
    const out =
      html`<td>${'gnp\u202Eexe.txt'}</td><td title="${'\u2067x\u2069'}">y</td>`.toString();
    expect(out).toBe('<td>gnp[U+202E]exe.txt</td><td title="[U+2067]x[U+2069]">y</td>');
    expect(out).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
  });
});

describe('safeUrl', () => {
  it('keeps http and https URLs', () => {
    expect(safeUrl('https://example.org/a?b=1')).toBe('https://example.org/a?b=1');
    expect(safeUrl('http://127.0.0.1:8000/')).toBe('http://127.0.0.1:8000/');
  });

  it('refuses every other scheme and anything that is not a URL', () => {
    for (const bad of [
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'data:text/html,<b>',
      'vbscript:x',
      'file:///etc/passwd',
      '//example.org',
      'not a url',
      42,
      null,
    ]) {
      expect(safeUrl(bad)).toBeNull();
    }
  });
});
