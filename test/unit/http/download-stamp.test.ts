import { describe, expect, it } from 'vitest';
import { downloadStamp } from '../../../src/main/http/download-stamp';

describe('downloadStamp', () => {
  it('is the UTC date and time to the second, without colons', () => {
    expect(downloadStamp(new Date('2026-11-26T09:30:15.987Z'))).toBe('2026-11-26-093015');
    expect(downloadStamp(new Date('2026-01-02T00:00:00Z'))).toBe('2026-01-02-000000');
  });
});
