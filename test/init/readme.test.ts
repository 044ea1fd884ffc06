// The README `stimkit init` writes: every command runs through npx (a bare `stimkit` is not on
// PATH after a local install), and it says which judge to use once real responses come in.
import { describe, expect, it } from 'vitest';
import { MODELS, README } from '../../src/init/templates.js';

describe('the README stimkit init writes', () => {
  const block = README.slice(README.indexOf('```sh') + 5, README.lastIndexOf('```'));
  const commands = block.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#'));

  it('runs every command with npx stimkit', () => {
    expect(commands.length).toBe(6);
    for (const c of commands) expect(c).toMatch(/^npx stimkit /);
  });

  it('names the judge for real responses, and the models file shows one', () => {
    expect(README).toMatch(/sim-judge` labels simulated responses only/);
    expect(README).toContain('--judge my-judge');
    expect(MODELS).toMatch(/# - name: my-judge\n {2}# {3}role: judge/);
  });
});
