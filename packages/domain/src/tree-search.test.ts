import { describe, expect, it } from 'vitest';
import type { GroupKind } from './account-tree';
import { createTreeSearch, normaliseTreeQuery, type SearchableGroup } from './tree-search';

const group = (
  name: string,
  kind: GroupKind,
  contents: Partial<Omit<SearchableGroup, 'name' | 'kind'>> = {},
): SearchableGroup => ({ name, kind, groups: [], devices: [], scenes: [], fullUsers: [], ...contents });

const boiler = { name: 'Boiler 1', sn: 'SN-ACME01' };
const freezer = { name: 'Freezer room', sn: null };
const spare = { name: 'Spare boiler', sn: 'SN-SPARE' };
const binned = { name: 'Old boiler', sn: 'SN-OLD' };
const olive = { firstName: 'Olive', lastName: 'Operator', email: 'ops@acme.test' };
const lobby = { name: 'Lobby dashboard' };
const plant = group('Boiler Room', 'group', { devices: [boiler], scenes: [lobby] });
const cold = group('Cold Store', 'group', { devices: [freezer], fullUsers: [olive] });
const newDevices = group('New Devices', 'new', { devices: [spare] });
const trash = group('Trash', 'trash', { devices: [binned] });
const root = group('Acme Controls', 'root', { groups: [newDevices, trash, plant, cold] });

const names = (items: ReadonlySet<{ name?: string; email?: string }>) =>
  [...items].map((item) => item.name ?? item.email).sort();

describe('tree search', () => {
  it.each([
    ['  BoIlEr ', 'boiler'],
    ['', ''],
  ])('normalises %j to %j', (query, normalised) => expect(normaliseTreeQuery(query)).toBe(normalised));

  it.each(['', '   '])('answers null for the blank query %j', (query) =>
    expect(createTreeSearch([root]).search(query)).toBeNull(),
  );

  it.each<[string, string, boolean, string[], string[]]>([
    ['a group name', 'cold', false, ['Cold Store'], []],
    ['a device name, any case', 'BOILER 1', false, [], ['Boiler 1']],
    ['a device serial', 'sn-acme', false, [], ['Boiler 1']],
    ['a user first name', 'olive', false, [], ['ops@acme.test']],
    ['a user full name', 'olive operator', false, [], ['ops@acme.test']],
    ['a user e-mail', 'ops@', false, [], ['ops@acme.test']],
    ['a scene name', 'lobby', false, [], ['Lobby dashboard']],
    ['group and device names at once', 'boiler', false, ['Boiler Room'], ['Boiler 1']],
    [
      'inside New Devices and Trash when included',
      'boiler',
      true,
      ['Boiler Room'],
      ['Boiler 1', 'Old boiler', 'Spare boiler'],
    ],
    ['the placeholder names themselves are excluded', 'trash', false, [], []],
    ['the placeholder names when included', 'trash', true, ['Trash'], []],
    ['a serial in New Devices, excluded', 'sn-spare', false, [], []],
    ['nothing', 'zzz', false, [], []],
  ])('finds %s (%j, include=%s)', (_label, query, include, groups, items) => {
    const result = createTreeSearch([root]).search(query, { includePlaceholderGroups: include })!;
    expect(names(result.matchedGroups)).toEqual(groups);
    expect(names(result.matchedItems)).toEqual(items);
    expect(result.count).toBe(groups.length + items.length);
  });

  it('shows every group above a match, and only those', () => {
    const result = createTreeSearch([root]).search('freezer')!;
    expect(names(result.shownGroups)).toEqual(['Acme Controls', 'Cold Store']);
    const included = createTreeSearch([root]).search('spare', { includePlaceholderGroups: true })!;
    expect(names(included.shownGroups)).toEqual(['Acme Controls', 'New Devices']);
  });

  it('does not match across the name and serial of a device', () =>
    expect(createTreeSearch([root]).search('1 sn-acme')!.count).toBe(0));

  it('indexes a tree of 10,000 items once: a search reads none of their texts again', () => {
    // The cost claimed (a few milliseconds a keystroke) is that of one pass over the index built
    // beforehand; counted in reads of the tree's texts, not timed.
    let reads = 0;
    const counted = (name: string, sn: string) => ({
      get name() {
        reads += 1;
        return name;
      },
      get sn() {
        reads += 1;
        return sn;
      },
    });
    const groups = Array.from({ length: 100 }, (_, g) =>
      group(`Site ${g}`, 'group', {
        devices: Array.from({ length: 99 }, (_, d) => counted(`Controller ${g}-${d}`, `SN${g * 100 + d}`)),
      }),
    );
    const search = createTreeSearch([group('Big', 'root', { groups })]);
    expect(search.size).toBe(10_001);
    const indexed = reads;
    for (const query of ['c', 'co', 'con', 'controller 5', 'sn99', 'zz']) search.search(query);
    expect(search.search('controller 42-7')!.count).toBe(11);
    expect(reads).toBe(indexed);
  });
});
