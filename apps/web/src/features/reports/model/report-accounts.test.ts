import { describe, expect, it } from 'vitest';
import type { Account, GroupNode } from '@fieldlink/api/account';
import { treeAccount, treeGroup } from '../../../lib/tree-fixtures';
import { reportAccountsOf } from './report-accounts';

const group = (id: string, accountId: string, groups: GroupNode[] = [], kind: GroupNode['kind'] = 'group') =>
  treeGroup(id, { accountId, kind, groups });

const account = (id: string, root: GroupNode): Account => treeAccount(root, { id, name: root.name, kind: 'supplier' });

describe('reportAccountsOf', () => {
  it('lists the user’s accounts, then the customer accounts below each, depth first', () => {
    const east = group('Acme East', 'east', [group('East plant', 'east')], 'root');
    const acme = group('Acme', 'acme', [group('Boilers', 'acme', [east])], 'root');
    const brew = group('Brewery', 'brew', [], 'root');
    const supplier = group('Supplier', 'supplier', [group('Customers', 'supplier', [acme, brew])], 'root');
    const choices = reportAccountsOf([account('supplier', supplier)]);
    expect(choices.map(({ account: { id, name }, depth }) => [id, name, depth])).toEqual([
      ['supplier', 'Supplier', 0],
      ['acme', 'Acme', 1],
      ['east', 'Acme East', 2],
      ['brew', 'Brewery', 1],
    ]);
    expect(choices[1]!.account.rootGroup).toBe(acme);
  });

  it('lists an account once, even when it is also below another of the user’s accounts', () => {
    const acme = group('Acme', 'acme', [], 'root');
    const supplier = group('Supplier', 'supplier', [acme], 'root');
    expect(
      reportAccountsOf([account('supplier', supplier), account('acme', acme)]).map((choice) => choice.account.id),
    ).toEqual(['supplier', 'acme']);
  });

  it('lists a customer’s only account alone', () => {
    const acme = group('Acme', 'acme', [group('Boilers', 'acme')], 'root');
    expect(reportAccountsOf([account('acme', acme)])).toHaveLength(1);
  });
});
