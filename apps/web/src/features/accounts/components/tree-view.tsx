import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent, type PointerEvent } from 'react';
import { ChevronRightIcon } from '../../../components/ui/icons';
import type { TreeRow } from '../model/tree-rows';
import { TOUCH_QUERY, TOUCH_TARGET_PX, useMediaQuery } from '../../../lib/use-media-query';
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
  /** The person chose the row (a click, a tap or Enter), rather than passing it with the arrows. */
  onActivate?: (row: TreeRow) => void;
  label: string;
  /** How long a press is held, still, before it opens the row's menu (touch has no right-click). */
  longPressMs?: number;
}

/** A press held this long without moving opens the menu, as on phones and tablets. */
export const LONG_PRESS_MS = 500;
/** A finger that moves further than this (px) scrolls: no long press. */
const LONG_PRESS_SLOP = 10;

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
 * The account tree as a WAI-ARIA tree with a roving tabindex: the current row is the one tab stop and
 * holds the focus. Up and Down move, Right opens or goes to the first child, Left closes or goes to
 * the parent, Home and End jump, Enter chooses (and opens or closes a group); the "more" button, a
 * long press, the menu key or Shift+F10 opens the row's menu, whose Escape hands the focus back.
 */
export function TreeView({
  rows,
  selectedKey,
  highlight,
  hasMenu,
  onSelect,
  onToggle,
  onMenu,
  onActivate,
  label,
  longPressMs = LONG_PRESS_MS,
}: TreeViewProps) {
  const rowHeight = useMediaQuery(TOUCH_QUERY) ? TOUCH_TARGET_PX : TREE_ROW_HEIGHT;
  const selectedIndex = useMemo(() => rows.findIndex((row) => row.key === selectedKey), [rows, selectedKey]);
  // The tab stop: the selected row, else the first.
  const currentKey = selectedIndex >= 0 ? selectedKey : (rows[0]?.key ?? null);
  // A key moved the selection: the new row takes the focus once it is drawn (it may first need to
  // be scrolled into the virtual window).
  const focusPending = useRef(false);
  const [, redraw] = useState(0);
  useEffect(() => {
    if (!focusPending.current || !currentKey) return;
    const element = document.getElementById(rowId(currentKey));
    if (element) {
      focusPending.current = false;
      element.focus({ preventScroll: true });
    } else {
      // Not drawn yet: try again after the scroll has drawn it.
      const frame = requestAnimationFrame(() => redraw((n) => n + 1));
      return () => cancelAnimationFrame(frame);
    }
  });

  /** Opens the menu from the row itself, so Escape hands the focus back to the row. */
  const openMenuAt = (row: TreeRow, x: number, y: number) => {
    document.getElementById(rowId(row.key))?.focus({ preventScroll: true });
    onMenu(row, x, y);
  };
  const openMenuFor = (row: TreeRow, index: number) => {
    const tree = document.getElementById(rowId(row.key))?.getBoundingClientRect();
    openMenuAt(row, (tree?.left ?? 0) + 40 + row.depth * INDENT, (tree?.bottom ?? index * rowHeight) + 2);
  };

  // One press at a time: the row, where it went down, and the timer that opens the menu.
  const press = useRef<{ timer: ReturnType<typeof setTimeout>; x: number; y: number } | null>(null);
  const endPress = () => {
    if (press.current) clearTimeout(press.current.timer);
    press.current = null;
  };
  // The press opened the menu: the click and context menu that follow its release are part of it.
  const longPressed = useRef(false);
  useEffect(() => endPress, []);
  const onPointerDown = (row: TreeRow, event: PointerEvent) => {
    endPress();
    longPressed.current = false;
    if (!event.isPrimary || event.button !== 0 || !hasMenu(row)) return;
    const { clientX: x, clientY: y } = event;
    press.current = {
      x,
      y,
      timer: setTimeout(() => {
        press.current = null;
        longPressed.current = true;
        onSelect(row);
        openMenuAt(row, x, y);
      }, longPressMs),
    };
  };
  const onPointerMove = (event: PointerEvent) => {
    const start = press.current;
    if (start && Math.hypot(event.clientX - start.x, event.clientY - start.y) > LONG_PRESS_SLOP) endPress();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (rows.length === 0) return;
    const index = selectedIndex < 0 ? 0 : selectedIndex;
    const row = rows[index]!;
    const go = (next: number) => {
      focusPending.current = true;
      onSelect(rows[Math.max(0, Math.min(rows.length - 1, next))]!);
    };
    switch (event.key) {
      case 'ArrowDown':
        go(index + 1);
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
        onSelect(row);
        if (row.expandable) onToggle(row);
        onActivate?.(row);
        break;
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
      rowHeight={rowHeight}
      scrollToIndex={selectedIndex}
      className="tree-view"
      containerProps={{
        role: 'tree',
        'aria-label': label,
        onKeyDown,
        'data-testid': 'account-tree',
      }}
      renderRow={(row, _index, top) => {
        const selected = row.key === selectedKey;
        const menu = hasMenu(row);
        const onContextMenu = (event: MouseEvent) => {
          event.preventDefault();
          // A long touch also raises a context menu: the press's menu is already open.
          if (longPressed.current) return;
          endPress();
          onSelect(row);
          if (menu) openMenuAt(row, event.clientX, event.clientY);
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
            // The name holds every word the row shows (its detail too: WCAG 2.5.3, label in name), then
            // its kind, which the icon only draws.
            aria-label={`${row.label}${row.detail ? `, ${row.detail}` : ''}, ${TREE_ITEM_KIND_LABELS[row.kind]}`}
            tabIndex={row.key === currentKey ? 0 : -1}
            data-kind={row.kind}
            className={`tree-row tree-row--${row.kind}${selected ? ' is-selected' : ''}`}
            style={{ top, height: rowHeight, paddingLeft: 8 + row.depth * INDENT }}
            onClick={() => {
              if (longPressed.current) return;
              onSelect(row);
              onActivate?.(row);
            }}
            onDoubleClick={() => row.expandable && onToggle(row)}
            onContextMenu={onContextMenu}
            onPointerDown={(event) => onPointerDown(row, event)}
            onPointerMove={onPointerMove}
            onPointerUp={endPress}
            onPointerCancel={endPress}
            onPointerLeave={endPress}
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
            </span>{' '}
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
                aria-label={`More actions for ${row.label}`}
                aria-haspopup="menu"
                title="More actions"
                onPointerDown={(event) => event.stopPropagation()}
                onClick={(event) => {
                  event.stopPropagation();
                  onSelect(row);
                  const box = event.currentTarget.getBoundingClientRect();
                  openMenuAt(row, box.left, box.bottom + 4);
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
