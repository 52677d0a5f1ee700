import { describe, expect, it } from 'vitest';
import { annotationsPatch, toAnnotationRows, toAnnotationsRecord } from './annotations-rules';

describe('annotation mappers with keys that name Object.prototype members', () => {
  it('deletes a removed key even when Object.prototype has a member of that name', () => {
    const patch = annotationsPatch({ constructor: 'c', toString: 't', keep: 'k' }, [
      { key: 'keep', value: 'k' },
    ]);
    expect(patch).toEqual({ constructor: '', toString: '' });
  });

  it('sends a new key even when Object.prototype has a member of that name', () => {
    expect(annotationsPatch({}, [{ key: 'valueOf', value: 'v' }])).toEqual({ valueOf: 'v' });
  });

  it('keeps __proto__ as an own key and leaves prototypes alone', () => {
    const rows = [{ key: '__proto__', value: 'x' }];
    const record = toAnnotationsRecord(rows);
    expect(Object.keys(record)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    const patch = annotationsPatch({}, rows);
    expect(Object.keys(patch)).toEqual(['__proto__']);
    expect(JSON.stringify(patch)).toBe('{"__proto__":"x"}');
    expect(Object.getPrototypeOf(patch)).toBe(Object.prototype);
    const removed = annotationsPatch(JSON.parse('{"__proto__":"x"}') as Record<string, string>, []);
    expect(JSON.stringify(removed)).toBe('{"__proto__":""}');
    expect(toAnnotationRows(JSON.parse('{"__proto__":"x"}') as Record<string, string>)).toEqual(
      rows,
    );
  });
});
