import { describe, expect, it } from 'vitest';
import { packageOrigin } from '../../../../src/main/evidence/import/package-origin';

describe('packageOrigin', () => {
  it('keeps a generator that reads as a name', () => {
    expect(packageOrigin('scandesk 0.4.0')).toBe('scandesk 0.4.0');
    expect(packageOrigin('Upstream exporter (eu-1)')).toBe('Upstream exporter (eu-1)');
  });

  it.each([
    ['empty', ''],
    ['only spaces', '   '],
    ['a terminal escape', 'scandesk\u001b[2J'],
    ['a bidirectional override', 'scandesk \u202e1.0'],
    ['over 100 characters', 'x'.repeat(101)],
  ])('drops one that is %s', (_label, generator) => {
    expect(packageOrigin(generator)).toBeNull();
  });
});
