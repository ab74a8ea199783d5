import { describe, expect, it } from 'vitest';
import type { Permission } from '@fieldlink/domain/permissions';
import { acmeTree, group } from './fixtures';
import { PATH_SEPARATOR, moveDestinations, movableType, userMoveProblem } from './move-targets';
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

// Issue 36 item 6: two customers' "Cold Store" and "Cold store" told apart by account and path.
describe('destination paths', () => {
  const bistro = {
    ...acmeTree(),
    id: 'bistro',
    name: 'Bistro Group',
    rootGroup: group(
      'b-root',
      'Bistro Group',
      './b',
      {
        groups: [
          group(
            'b-site',
            'Site A',
            './b/site',
            { groups: [group('b-cold', 'Cold store', './b/site/cold', {}, 'group', 'bistro')] },
            'group',
            'bistro',
          ),
        ],
      },
      'root',
      'bistro',
    ),
  };
  const both = [acmeTree(), bistro];
  const boiler = flattenTree(both, { expanded: allGroupKeys(both) }).find((row) => row.label === 'Boiler 1')!.target;

  it('names each destination by its account and the groups down to it', () =>
    expect(
      moveDestinations(both, boiler)
        .filter((d) => d.group.name.toLowerCase() === 'cold store')
        .map((d) => [d.path.join(PATH_SEPARATOR), d.refusal]),
    ).toEqual([
      ['Acme › Cold Store', null],
      ['Bistro Group › Site A › Cold store', null],
    ]));

  it('names a root group by its account alone', () =>
    expect(
      moveDestinations(both, boiler)
        .filter((d) => d.depth === 0)
        .map((d) => d.path),
    ).toEqual([['Acme'], ['Bistro Group']]));
});
