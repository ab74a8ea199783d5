import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  NEW_DEVICES_GROUP_NAME,
  TRASH_GROUP_NAME,
  childPath,
  commonGroupIds,
  groupIdOfPath,
  groupPath,
  isInScope,
  isPathId,
  isUnderPath,
  newDevicesGroupName,
  parseGroupPath,
  parseScenePath,
  scenePath,
  widgetPath,
} from './group-path';

describe('group paths', () => {
  it.each([
    [['root1', 'g2', 'g3'], './root1/g2/g3'],
    [['root1'], './root1'],
    [[], './'],
  ])('%j <-> %s', (ids, path) => {
    expect(groupPath(ids)).toBe(path);
    expect(parseGroupPath(path)).toEqual(ids);
  });

  it.each(['root1/g2', '/root1', './root1/', './root1//g2', './a/../b', './a/./b', '.', '', './a b', './a|b'])(
    'refuses the malformed path %j',
    (path) => expect(parseGroupPath(path)).toBeNull(),
  );

  it.each(['', 'a/b', 'a|b', '.', '..', 'a b'])('refuses to build with the id %j', (id) =>
    expect(() => groupPath(['root', id])).toThrow(RangeError),
  );

  it.each([
    ['./a/b', 'b'],
    ['./a', 'a'],
    ['./', null],
    ['bad', null],
  ])('group of %s is %j', (path, id) => expect(groupIdOfPath(path)).toBe(id));

  it('builds child paths', () => {
    expect(childPath('./a', 'b')).toBe('./a/b');
    expect(childPath('./', 'root')).toBe('./root');
    expect(() => childPath('a', 'b')).toThrow(RangeError);
  });
});

describe('isUnderPath', () => {
  it.each([
    ['./root1/g2/g3', './root1', true],
    ['./root1/g2/g3', './root1/g2', true],
    ['./root1/g2/g3', './root1/g2/g3', true],
    ['./root1', './root1/g2', false],
    ['./g10', './g1', false],
    ['./g1/x', './g1', true],
    ['./g10/x', './g1', false],
    ['./root2/g2', './root1', false],
    ['./root1/g2', './', true],
    ['./root1/g2', '', false],
    ['./root1/g2', './root1/', false],
    ['root1/g2', 'root1', false],
    ['./root1/../root2', './root1', false],
  ])('%s under %s -> %s', (entity, attachment, expected) => expect(isUnderPath(entity, attachment)).toBe(expected));

  const id = fc.stringMatching(/^[a-z0-9]{1,4}$/);
  it('is covered exactly when the attachment ids begin the entity ids', () =>
    fc.assert(
      fc.property(fc.array(id, { maxLength: 5 }), fc.array(id, { maxLength: 5 }), (entity, attachment) => {
        const expected = attachment.length <= entity.length && attachment.every((x, i) => entity[i] === x);
        expect(isUnderPath(groupPath(entity), groupPath(attachment))).toBe(expected);
      }),
    ));

  it.each([
    ['./a/b', ['./c', './a'], true],
    ['./a/b', ['./c', './a/bb'], false],
    ['./a/b', [], false],
  ])('scope of %s in %j -> %s', (path, points, expected) => expect(isInScope(path, points)).toBe(expected));
});

describe('commonGroupIds', () => {
  it.each([
    [
      ['./root01/groupA1/groupB1', './root01/groupA1/groupB2'],
      ['root01', 'groupA1'],
    ],
    [['./root01/groupA1', './root01/groupA2'], ['root01']],
    [
      ['./root01/g2/groupB1', './root01/g2/groupB1'],
      ['root01', 'groupB1'],
    ],
    [['./root01/groupA1'], ['root01', 'groupA1']],
    [['./rootAA/x', './rootBB/x'], []],
    [[], []],
  ])('%j -> %j', (paths, expected) => expect(commonGroupIds(paths)).toEqual(expected));
});

describe('scene and widget paths', () => {
  it.each([
    [scenePath('g1', 's1'), 'g1|scene:s1', { groupId: 'g1', sceneId: 's1', widgetId: null }],
    [widgetPath('g1', 's1', 'w1'), 'g1|scene:s1|widget:w1', { groupId: 'g1', sceneId: 's1', widgetId: 'w1' }],
  ])('%s', (built, expected, parsed) => {
    expect(built).toBe(expected);
    expect(parseScenePath(built)).toEqual(parsed);
  });

  it.each([
    'g1',
    'g1|s1',
    'g1|scene:',
    '|scene:s1',
    'g1|widget:w1',
    'g1|scene:s1|w1',
    'g1|scene:s1|widget:',
    'g1|scene:s1|widget:w1|more',
    'g/1|scene:s1',
  ])('refuses %j', (path) => expect(parseScenePath(path)).toBeNull());

  it('refuses ids holding a separator', () => {
    expect(() => scenePath('g|1', 's')).toThrow(RangeError);
    expect(() => widgetPath('g', 's', 'w|x')).toThrow(RangeError);
  });

  it('round-trips any valid ids', () =>
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter(isPathId),
        fc.string({ minLength: 1 }).filter(isPathId),
        fc.string({ minLength: 1 }).filter(isPathId),
        (groupId, sceneId, widgetId) => {
          expect(parseScenePath(widgetPath(groupId, sceneId, widgetId))).toEqual({ groupId, sceneId, widgetId });
        },
      ),
    ));
});

describe('special group names', () => {
  it.each([
    ['2', 'New Stock'],
    ['5', 'New Devices'],
    [null, 'New Devices'],
    [undefined, 'New Devices'],
  ])('variant %j -> %s', (variant, name) => expect(newDevicesGroupName(variant)).toBe(name));

  it('names the placeholders as the specification does', () => {
    expect(NEW_DEVICES_GROUP_NAME).toBe('New Devices');
    expect(TRASH_GROUP_NAME).toBe('Trash');
  });
});
