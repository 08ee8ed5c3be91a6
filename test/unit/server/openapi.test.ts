import { describe, expect, it } from 'vitest';
import { byteSize, withBodyLimit } from '../../../src/main/server/openapi';

describe('byteSize', () => {
  it('says whole MiB in MiB, with the exact bytes a validator compares', () => {
    expect(byteSize(1024 * 1024)).toBe('1 MiB (1,048,576 bytes)');
    expect(byteSize(512 * 1024 * 1024)).toBe('512 MiB (536,870,912 bytes)');
    expect(byteSize(4096)).toBe('4,096 bytes');
  });
});

describe('withBodyLimit', () => {
  it('gives an operation with a body its limit, in words, as an extension and as a 413', () => {
    const schema = withBodyLimit({ description: 'Submit.', body: { type: 'object' }, response: { 201: {} } }, 2048);
    expect(schema).toMatchObject({
      description: 'Submit.\n\nThe body may be at most 2,048 bytes; a larger one is answered 413 `payload_too_large`.',
      'x-body-limit-bytes': 2048,
      response: { 201: {}, 413: { description: 'The body is larger than 2,048 bytes', required: ['error'] } },
    });
  });

  it('leaves an operation without a body as it is', () => {
    const schema = { response: { 200: {} } };
    expect(withBodyLimit(schema, 2048)).toBe(schema);
  });
});
