import { describe, expect, it } from 'vitest';
import type { Permission } from '@fieldlink/domain/permissions';
import { acmeTree } from './fixtures';
import { moveDestinations, movableType, userMoveProblem } from './move-targets';
import { flattenTree, allGroupKeys, type TreeTarget } from './tree-rows';

const accounts = [acmeTree()];
const rows = flattenTree(accounts, { expanded: allGroupKeys(accounts) });
const target = (label: string): TreeTarget => rows.find((row) => row.label === label)!.target;
const verdicts = (item: TreeTarget) =>
  Object.fromEntries(moveDestinations(accounts, item).map((d) => [d.group.name, d.refusal]));

describe('move destinations', () => {
  it.each([
    ['Acme', null],
    ['Boiler 1', 'DEVICE'],
    ['Olive Ops', 'USER'],
    ['Cold Store', 'GROUP'],
    ['Lobby', null],
  ])('%s moves as %s', (label, type) => expect(movableType(target(label))).toBe(type));

  it('lets a device go anywhere but where it is', () =>
    expect(verdicts(target('Boiler 1'))).toEqual({
      Acme: null,
      'New Devices': null,
      'Boiler Room': 'It is already here.',
      'Cold Store': null,
      Trash: null,
    }));

  it('keeps a group out of itself and the placeholders', () =>
    expect(verdicts(target('Cold Store'))).toEqual({
      Acme: 'It is already here.',
      'New Devices': 'Only devices can be moved into New Devices or Trash.',
      'Boiler Room': null,
      'Cold Store': 'A group cannot be moved under itself.',
      Trash: 'Only devices can be moved into New Devices or Trash.',
    }));

  it.each<[string, Permission[], string, string | null]>([
    ['oneself', ['VIEW_ACCOUNTS', 'ADD_EDIT_DELETE_GROUPS'], 'ops@acme.test', 'You cannot move yourself.'],
    [
      'an alarm responder without ALARM',
      ['VIEW_ACCOUNTS', 'ADD_EDIT_DELETE_GROUPS'],
      'boss@acme.test',
      'You cannot move a user who holds permissions you do not hold.',
    ],
    ['an alarm responder with ALARM', ['VIEW_ACCOUNTS', 'ADD_EDIT_DELETE_GROUPS', 'ALARM'], 'boss@acme.test', null],
  ])('refuses to move %s -> %j', (_label, permissions, me, problem) => {
    const label = me === 'ops@acme.test' ? 'Olive Ops' : 'Ann Alarm';
    expect(userMoveProblem(target(label), { permissions }, me)).toBe(problem);
  });
});
