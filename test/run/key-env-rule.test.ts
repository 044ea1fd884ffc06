// The rule for printing api_key_env (docs/formats/models.md, "When api_key_env is printed").
import { describe, expect, it } from 'vitest';
import { printableKeyEnv } from '../../src/models/key-env.js';

const AWS = 'AKIAIOSFODNN7EXAMPLE';
const RUN40 = 'ZQ7VT2KX9PLM4RB8WN3YC6HJ1FD5GS0A2QE7TU4V';

describe('printableKeyEnv', () => {
  it('is printable only in the documented shape', () => {
    const yes = [
      'OPENAI_API_KEY',
      'ANTHROPIC_API_KEY',
      'GEMINI_API_KEY',
      'OPENROUTER_API_KEY',
      'HF_TOKEN',
      'MY_KEY_2',
      'KEY_2024',
      'GPT4O_KEY',
    ];
    const no = [
      AWS,
      RUN40,
      'KEY_8F3A9B2C7D1E',
      'zq7vt2_lower_secret',
      'OPENAIKEYVALUE',
      'A_B1C2D3',
      '_KEY',
      'KEY_',
      'MY__KEY',
      'XKCDQWRT_KEY',
    ];
    expect(yes.filter((v) => !printableKeyEnv(v))).toEqual([]);
    expect(no.filter((v) => printableKeyEnv(v))).toEqual([]);
  });
});
