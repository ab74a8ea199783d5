import { describe, expect, it } from 'vitest';
import { scene } from './fixtures';
import { inOrder, sceneNameError, sceneOfRoute } from './scenes';

describe('sceneOfRoute', () => {
  const scenes = [scene('s1'), scene('s2', { name: '' }), scene('s3')];
  it('is the scene the segment names, or null when it names none', () => {
    expect(sceneOfRoute(scenes, 's3')?.id).toBe('s3');
    expect(sceneOfRoute(scenes, 'gone')).toBeNull();
  });
  it('without a segment is the scene without a name, else the first', () => {
    expect(sceneOfRoute(scenes, undefined)?.id).toBe('s2');
    expect(sceneOfRoute([scene('s1'), scene('s3')], undefined)?.id).toBe('s1');
    expect(sceneOfRoute([], undefined)).toBeNull();
  });
});

describe('inOrder', () => {
  it('sorts scenes by the ids, unnamed ones last', () => {
    expect(inOrder([scene('a'), scene('b'), scene('c')], ['c', 'a']).map((s) => s.id)).toEqual(['c', 'a', 'b']);
  });
});

describe('sceneNameError', () => {
  it('asks for a name of at most 120 characters', () => {
    expect(sceneNameError('   ')).toBe('Enter a name for the scene.');
    expect(sceneNameError('x'.repeat(121))).toBe('Use at most 120 characters.');
    expect(sceneNameError(`  Cellar   one `)).toBeNull();
  });
});
