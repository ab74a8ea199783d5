import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Account } from '@fieldlink/api/account';
import { can, type PermissionSubject } from '@fieldlink/domain/permissions';
import { treeMenuEntries, type TreeMenuEntry } from '@fieldlink/domain/tree-menu';
import { createTreeSearch, normaliseTreeQuery } from '@fieldlink/domain/tree-search';
import { Button } from '../../../components/ui/button';
import {
  AccountsIcon,
  CloseIcon,
  LockIcon,
  PlusIcon,
  SearchIcon,
  UploadIcon,
  WarningIcon,
} from '../../../components/ui/icons';
import { Menu, type MenuItem } from '../../../components/ui/menu';
import { PanelMessage } from '../../../components/ui/panel-message';
import { Spinner } from '../../../components/ui/spinner';
import { serverErrorMessage } from '../../../lib/api-client';
import { useAccountsContext } from '../hooks/use-accounts-context';
import { useSelectionState } from '../hooks/use-selection-state';
import {
  allGroupKeys,
  ancestorKeys,
  findTarget,
  flattenTree,
  initiallyExpandedKeys,
  searchExpandedKeys,
  targetKey,
  type TreeRow,
  type TreeTarget,
} from '../model/tree-rows';
import { DetailPanel } from './detail-panel';
import { TreeDialogs, type AddDevicesSlot, type TreeDialog } from './tree-dialogs';
import { CollapseAllIcon, ExpandAllIcon, FolderPlusIcon, MoveIcon, TrashIcon, UserPlusIcon } from './tree-icons';
import { TreeView } from './tree-view';
import './accounts.css';

/**
 * `/accounts/treeview`: the account tree with search, menus and the panel of the selected item.
 * `addDevices` is the dialog that adds devices (the app composes it from the devices feature).
 */
export function AccountsTreePage({ addDevices }: { addDevices?: AddDevicesSlot } = {}) {
  const context = useAccountsContext();
  if (context.status === 'pending') {
    return (
      <div className="accounts-loading" role="status">
        <Spinner size={22} /> Reading your accounts…
      </div>
    );
  }
  if (context.status === 'error') {
    return (
      <PanelMessage
        icon={<WarningIcon size={26} />}
        title="The account tree could not be read"
        actions={<Button onClick={context.retry}>Try again</Button>}
      >
        {serverErrorMessage(context.error)}
      </PanelMessage>
    );
  }
  if (!can(context.subject, 'viewAccounts')) {
    return (
      <PanelMessage icon={<LockIcon size={26} />} title="No access to accounts">
        Your user may not view the account tree. Ask an administrator of your account for the View accounts permission.
      </PanelMessage>
    );
  }
  return (
    <AccountsTree accounts={context.accounts} subject={context.subject} email={context.email} addDevices={addDevices} />
  );
}

const MENU_ICONS: Record<TreeMenuEntry, MenuItem['icon']> = {
  Move: <MoveIcon size={16} />,
  Delete: <TrashIcon size={16} />,
  'Add Subgroup': <FolderPlusIcon size={16} />,
  'Invite User': <UserPlusIcon size={16} />,
  'Add Device': <PlusIcon size={16} />,
  'Import Devices': <UploadIcon size={16} />,
};

/** The width below which the details sit under the tree (accounts.css), as a media query. */
const SINGLE_COLUMN = '(max-width: 900px)';
const DETAIL_PANEL_ID = 'account-tree-details';

function AccountsTree({
  accounts,
  subject,
  email,
  addDevices,
}: {
  accounts: readonly Account[];
  subject: PermissionSubject;
  email: string;
  addDevices?: AddDevicesSlot;
}) {
  const [query, setQuery] = useState('');
  const [includePlaceholders, setIncludePlaceholders] = useState(false);
  const [expanded, setExpanded] = useState<Set<string>>(() => initiallyExpandedKeys(accounts));
  // Opening and closing during a search is kept apart, per query, so clearing it restores the tree.
  const [searchToggles, setSearchToggles] = useState<{ key: string; open: Map<string, boolean> }>({
    key: '',
    open: new Map(),
  });
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const [menu, setMenu] = useState<{ row: TreeRow; place: { x: number; y: number } } | null>(null);
  const [dialog, setDialog] = useState<TreeDialog | null>(null);

  const search = useMemo(() => createTreeSearch(accounts.map((account) => account.rootGroup)), [accounts]);
  const normalised = normaliseTreeQuery(query);
  const result = useMemo(
    () => search.search(normalised, { includePlaceholderGroups: includePlaceholders }),
    [search, normalised, includePlaceholders],
  );
  const searchKey = `${normalised}\n${includePlaceholders}`;
  const searchExpanded = useMemo(() => {
    if (!result) return null;
    const keys = searchExpandedKeys(accounts, result);
    if (searchToggles.key === searchKey) {
      for (const [key, open] of searchToggles.open) {
        if (open) keys.add(key);
        else keys.delete(key);
      }
    }
    return keys;
  }, [accounts, result, searchToggles, searchKey]);
  const rows = useMemo(
    () => flattenTree(accounts, { expanded: searchExpanded ?? expanded, search: result }),
    [accounts, expanded, searchExpanded, result],
  );
  const selected = useMemo(() => (selectedKey ? findTarget(accounts, selectedKey) : null), [accounts, selectedKey]);
  useSelectionState(selected, selectedKey);

  const onToggle = useCallback(
    (row: TreeRow) => {
      if (result) {
        setSearchToggles((previous) => {
          const open = new Map(previous.key === searchKey ? previous.open : []);
          open.set(row.key, !row.expanded);
          return { key: searchKey, open };
        });
        return;
      }
      setExpanded((previous) => {
        const next = new Set(previous);
        if (next.has(row.key)) next.delete(row.key);
        else next.add(row.key);
        return next;
      });
    },
    [result, searchKey],
  );

  const menuItemsFor = (target: TreeTarget, entries: TreeMenuEntry[]): MenuItem[] =>
    entries.map((entry) => ({
      label: entry,
      icon: MENU_ICONS[entry],
      tone: entry === 'Delete' ? 'danger' : undefined,
      onSelect: () => {
        if (target.type !== 'group' && entry !== 'Move') return;
        if (entry === 'Move') setDialog({ type: 'move', target });
        else if (entry === 'Delete' && target.type === 'group') setDialog({ type: 'delete', target });
        else if (entry === 'Add Subgroup' && target.type === 'group') setDialog({ type: 'addSubgroup', target });
        else if (entry === 'Invite User' && target.type === 'group') setDialog({ type: 'invite', target });
        else if (entry === 'Add Device' && target.type === 'group') setDialog({ type: 'addDevice', target });
        else if (entry === 'Import Devices' && target.type === 'group') setDialog({ type: 'importDevices', target });
      },
    }));

  /** Shows an item in the tree (after a move or an add): its groups open, the search cleared. */
  const reveal = useCallback(
    (key: string, groupId: string) => {
      setQuery('');
      setExpanded((previous) => new Set([...previous, ...ancestorKeys(accounts, groupId)]));
      setSelectedKey(key);
    },
    [accounts],
  );

  const matchCount = result?.count ?? 0;

  // On a phone the details sit below the tree: an item chosen (not passed with the arrows) brings
  // them into view, once they show it.
  const [activated, setActivated] = useState(0);
  useEffect(() => {
    if (activated === 0 || !window.matchMedia(SINGLE_COLUMN).matches) return;
    const reduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    document.getElementById(DETAIL_PANEL_ID)?.scrollIntoView({ block: 'start', behavior: reduced ? 'auto' : 'smooth' });
  }, [activated]);

  return (
    <div className="accounts-page">
      <section className="fl-card tree-panel" aria-label="Account tree">
        <header className="tree-panel__header">
          <div className="tree-search">
            <SearchIcon size={17} />
            <input
              className="tree-search__input"
              type="search"
              placeholder="Search groups, dashboards, devices and users"
              aria-label="Search the account tree"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Escape') setQuery('');
              }}
            />
            {query && (
              <button
                type="button"
                className="tree-search__clear"
                aria-label="Clear search"
                onClick={() => setQuery('')}
              >
                <CloseIcon size={15} />
              </button>
            )}
          </div>
          <div className="tree-panel__bar">
            <label className="tree-search__include">
              <input
                type="checkbox"
                checked={includePlaceholders}
                onChange={(event) => setIncludePlaceholders(event.target.checked)}
              />
              Search New Devices and Trash too
            </label>
            <div className="tree-panel__tools">
              {result && (
                <span className="tree-panel__count" role="status" data-testid="tree-match-count">
                  {matchCount === 0
                    ? 'No matches'
                    : `${matchCount.toLocaleString()} ${matchCount === 1 ? 'match' : 'matches'}`}
                </span>
              )}
              <button
                type="button"
                className="tree-panel__tool"
                title="Expand all"
                aria-label="Expand all groups"
                disabled={result !== null}
                onClick={() => setExpanded(allGroupKeys(accounts))}
              >
                <ExpandAllIcon size={16} />
              </button>
              <button
                type="button"
                className="tree-panel__tool"
                title="Collapse all"
                aria-label="Collapse all groups"
                disabled={result !== null}
                onClick={() => setExpanded(new Set())}
              >
                <CollapseAllIcon size={16} />
              </button>
            </div>
          </div>
        </header>
        {rows.length === 0 ? (
          <div className="tree-panel__empty">
            {result ? (
              <>
                <SearchIcon size={22} />
                <div>Nothing matches “{query.trim()}”.</div>
                {!includePlaceholders && <div className="fl-muted">New Devices and Trash were not searched.</div>}
              </>
            ) : (
              <>
                <AccountsIcon size={22} />
                <div>No accounts to show.</div>
              </>
            )}
          </div>
        ) : (
          <TreeView
            rows={rows}
            selectedKey={selectedKey}
            highlight={normalised}
            label="Groups, dashboards, devices and users"
            hasMenu={(row) => treeMenuEntries(row.kind, subject).length > 0}
            onSelect={(row) => setSelectedKey(row.key)}
            onToggle={onToggle}
            onMenu={(row, x, y) => setMenu({ row, place: { x, y } })}
            onActivate={() => setActivated((count) => count + 1)}
          />
        )}
      </section>
      <DetailPanel
        id={DETAIL_PANEL_ID}
        accounts={accounts}
        target={selected}
        subject={subject}
        email={email}
        onAction={(action, target) => setDialog({ type: action, target })}
        onSelect={(target) => setSelectedKey(targetKey(target))}
      />
      {menu && (
        <Menu
          place={menu.place}
          label={`Actions for ${menu.row.label}`}
          items={menuItemsFor(menu.row.target, treeMenuEntries(menu.row.kind, subject))}
          onClose={() => setMenu(null)}
        />
      )}
      {dialog && (
        <TreeDialogs
          dialog={dialog}
          accounts={accounts}
          subject={subject}
          email={email}
          onClose={() => setDialog(null)}
          onDone={reveal}
          addDevices={addDevices}
        />
      )}
    </div>
  );
}
