import { describe, expect, it } from 'vitest';
import { makeAjv } from '../../../src/main/http/validation';
import { compileOnFirstCall } from '../../../src/main/http/compile-on-first-call';

describe('compileOnFirstCall', () => {
  it('compiles once, at the first call, and answers as the compiled function does', () => {
    let compiles = 0;
    const double = compileOnFirstCall(() => {
      compiles += 1;
      return (n: number) => n * 2;
    });
    expect(compiles).toBe(0);
    expect(double(2)).toBe(4);
    expect(double(5)).toBe(10);
    expect(compiles).toBe(1);
  });

  it("carries an ajv validator's errors of the last call", () => {
    const ajv = makeAjv(false);
    const validate = compileOnFirstCall(() =>
      ajv.compile({ type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }),
    );
    expect(validate({ n: 'x' })).toBe(false);
    expect(validate.errors?.map((error) => error.instancePath)).toEqual(['/n']);
    expect(validate({ n: 1 })).toBe(true);
    expect(validate.errors).toBeNull();
  });

  it('throws the compile error at the first call, and again at the next', () => {
    const broken = compileOnFirstCall((): (() => void) => {
      throw new Error('bad schema');
    });
    expect(() => broken()).toThrow('bad schema');
    expect(() => broken()).toThrow('bad schema');
  });
});
