import { config } from 'zod/v4/core';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { configureZod } from './zod-config';

describe('configureZod', () => {
  afterEach(() => {
    config({ jitless: false });
  });

  it('turns on zod’s jitless mode as zod’s own config() reports it', () => {
    config({ jitless: false });
    configureZod();
    expect(config().jitless).toBe(true);
  });

  it('leaves schemas working without eval', () => {
    configureZod();
    const schema = z.object({ id: z.string().min(1), count: z.number().int() });
    expect(schema.safeParse({ id: 'alice', count: 2 }).success).toBe(true);
    expect(schema.safeParse({ id: '', count: 2.5 }).error?.issues).toHaveLength(2);
  });
});
