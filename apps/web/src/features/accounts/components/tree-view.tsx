import { useMemo, type KeyboardEvent, type MouseEvent } from 'react';
import { ChevronRightIcon } from '../../../components/ui/icons';
import type { TreeRow } from '../model/tree-rows';
import { MoreIcon, TREE_ITEM_KIND_LABELS, TreeItemIcon } from './tree-icons';
import { VirtualRows } from './virtual-rows';

/** Height of a tree row in pixels: fixed, so the list can be virtual. */
export const TREE_ROW_HEIGHT = 36;
const INDENT = 20;

export interface TreeViewProps {
  rows: readonly TreeRow[];
  selectedKey: string | null;
  /** Text to mark in labels (the search). */
  highlight: string;
  hasMenu: (row: TreeRow) => boolean;
  onSelect: (row: TreeRow) => void;
  onToggle: (row: TreeRow) => void;
  /** Opens the row's menu at a point on the screen. */
  onMenu: (row: TreeRow, x: number, y: number) => void;
  label: string;
}

/** The label with the searched text marked. Text stays text: nothing typed is ever read as markup. */
function Highlighted({ text, query }: { text: string; query: string }) {
  const at = query ? text.toLowerCase().indexOf(query) : -1;
  if (at < 0) return <>{text}</>;
  return (
    <>
      {text.slice(0, at)}
      <mark>{text.slice(at, at + query.length)}</mark>
      {text.slice(at + query.length)}
    </>
  );
}

const SEARCHED_DETAIL = new Set<TreeRow['kind']>([
  'device',
  'deviceConnected',
  'deviceDisconnected',
  'user',
  'adminUser',
  'alarmUser',
]);

const rowId = (key: string) => `tree-row-${key.replace(/[^A-Za-z0-9_-]/g, '_')}`;

/**
 * The account tree as an ARIA tree: one focusable list with the selected row as its active
 * descendant. Arrows move and open or close, Home and End jump, the menu key or Shift+F10 opens the
 * row's menu.
 */
export function TreeView({ rows, selectedKey, highlight, hasMenu, onSelect, onToggle, onMenu, label }: TreeViewProps) {
  const selectedIndex = useMemo(() => rows.findIndex((row) => row.key === selectedKey), [rows, selectedKey]);

  const openMenuFor = (row: TreeRow, index: number) => {
    const tree = document.getElementById(rowId(row.key))?.getBoundingClientRect();
    onMenu(row, (tree?.left ?? 0) + 40 + row.depth * INDENT, (tree?.bottom ?? index * TREE_ROW_HEIGHT) + 2);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (rows.length === 0) return;
    const index = selectedIndex < 0 ? 0 : selectedIndex;
    const row = rows[index]!;
    const go = (next: number) => onSelect(rows[Math.max(0, Math.min(rows.length - 1, next))]!);
    switch (event.key) {
      case 'ArrowDown':
        go(selectedIndex < 0 ? 0 : index + 1);
        break;
      case 'ArrowUp':
        go(index - 1);
        break;
      case 'Home':
        go(0);
        break;
      case 'End':
        go(rows.length - 1);
        break;
      case 'PageDown':
        go(index + 10);
        break;
      case 'PageUp':
        go(index - 10);
        break;
      case 'ArrowRight':
        if (row.expandable && !row.expanded) onToggle(row);
        else if (row.expanded) go(index + 1);
        break;
      case 'ArrowLeft':
        if (row.expanded) onToggle(row);
        else {
          // To the parent: the nearest row above at a smaller depth.
          for (let up = index - 1; up >= 0; up--) {
            if (rows[up]!.depth < row.depth) {
              go(up);
              break;
            }
          }
        }
        break;
      case 'Enter':
      case ' ':
        if (row.expandable) onToggle(row);
        break;
      case 'ContextMenu':
        if (hasMenu(row)) openMenuFor(row, index);
        break;
      case 'F10':
        if (!event.shiftKey || !hasMenu(row)) return;
        openMenuFor(row, index);
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  return (
    <VirtualRows
      items={rows}
      rowHeight={TREE_ROW_HEIGHT}
      scrollToIndex={selectedIndex}
      className="tree-view"
      containerProps={{
        role: 'tree',
        'aria-label': label,
        tabIndex: 0,
        'aria-activedescendant': selectedKey && selectedIndex >= 0 ? rowId(selectedKey) : undefined,
        onKeyDown,
        'data-testid': 'account-tree',
      }}
      renderRow={(row, _index, top) => {
        const selected = row.key === selectedKey;
        const menu = hasMenu(row);
        const onContextMenu = (event: MouseEvent) => {
          event.preventDefault();
          onSelect(row);
          if (menu) onMenu(row, event.clientX, event.clientY);
        };
        return (
          <div
            key={row.key}
            id={rowId(row.key)}
            role="treeitem"
            aria-level={row.depth + 1}
            aria-setsize={row.siblings}
            aria-posinset={row.position}
            aria-expanded={row.expandable ? row.expanded : undefined}
            aria-selected={selected}
            aria-label={`${row.label}, ${TREE_ITEM_KIND_LABELS[row.kind]}`}
            data-kind={row.kind}
            className={`tree-row tree-row--${row.kind}${selected ? ' is-selected' : ''}`}
            style={{ top, height: TREE_ROW_HEIGHT, paddingLeft: 8 + row.depth * INDENT }}
            onClick={() => onSelect(row)}
            onDoubleClick={() => row.expandable && onToggle(row)}
            onContextMenu={onContextMenu}
          >
            {row.depth > 0 && (
              <span className="tree-row__guides" aria-hidden="true" style={{ width: row.depth * INDENT }} />
            )}
            <button
              type="button"
              tabIndex={-1}
              aria-hidden="true"
              className={`tree-row__twisty${row.expanded ? ' is-open' : ''}`}
              style={{ visibility: row.expandable ? 'visible' : 'hidden' }}
              onClick={(event) => {
                event.stopPropagation();
                onToggle(row);
              }}
            >
              <ChevronRightIcon size={15} />
            </button>
            <span className="tree-row__icon">
              <TreeItemIcon kind={row.kind} size={17} />
            </span>
            <span className="tree-row__label">
              <Highlighted text={row.label} query={highlight} />
            </span>
            {row.detail && (
              <span className="tree-row__detail">
                {/* Serial numbers and e-mails are searched; a group's device count is not. */}
                <Highlighted text={row.detail} query={SEARCHED_DETAIL.has(row.kind) ? highlight : ''} />
              </span>
            )}
            {menu && (
              <button
                type="button"
                tabIndex={-1}
                className="tree-row__more"
                aria-label={`Actions for ${row.label}`}
                onClick={(event) => {
                  event.stopPropagation();
                  onSelect(row);
                  const box = event.currentTarget.getBoundingClientRect();
                  onMenu(row, box.left, box.bottom + 4);
                }}
              >
                <MoreIcon size={16} />
              </button>
            )}
          </div>
        );
      }}
    />
  );
}
