// A batch output is filed under a model only when its answers name that model: the same name, or
// the name with a snapshot suffix; another model whose name merely starts alike is refused.
import { describe, expect, it } from 'vitest';
import { checkServedModel, servedMatches } from '../../src/batch/served-model.js';

describe('servedMatches', () => {
  it.each([
    ['gpt-4o', 'gpt-4o'],
    ['gpt-4o', 'gpt-4o-2024-08-06'],
    ['gpt-4', 'gpt-4-0613'],
    ['claude-sonnet-4-5', 'claude-sonnet-4-5-20250929'],
    ['gemini-2.0-flash', 'gemini-2.0-flash-001'],
    ['gemini-2.0-flash', 'models/gemini-2.0-flash-001'],
    ['claude-3-5-sonnet', 'claude-3-5-sonnet-latest'],
    ['Org/VLM-7B', 'org/vlm-7b'],
  ])('accepts %s served as %s (a snapshot of it)', (requested, served) => {
    expect(servedMatches(requested, served)).toBe(true);
  });

  it.each([
    ['gemini-2.5-flash', 'gemini-2.5-flash-lite'],
    ['gpt-4o', 'gpt-4o-mini-2024-07-18'],
    ['claude-sonnet-4', 'claude-sonnet-4-5-20250929'],
    ['gpt-4o-2024-08-06', 'gpt-4o'],
    ['vlm', 'org/vlm-7b'],
  ])('refuses %s served as %s (another model)', (requested, served) => {
    expect(servedMatches(requested, served)).toBe(false);
  });

  it('refuses a file whose answers name another model, naming it', () => {
    expect(() =>
      checkServedModel('out.jsonl', 'flash', 'gemini-2.5-flash', [
        { line: 1, served: 'gemini-2.5-flash-001' },
        { line: 2, served: 'gemini-2.5-flash-lite' },
      ]),
    ).toThrow(
      expect.objectContaining({
        code: 'E_BATCH_MODEL',
        message: expect.stringContaining('"gemini-2.5-flash-lite"'),
      }),
    );
  });
});
