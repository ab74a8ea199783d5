// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { acmeTree } from '../model/fixtures';
import { flattenTree, groupKey, type TreeRow } from '../model/tree-rows';
import { LONG_PRESS_MS, TreeView } from './tree-view';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const accounts = [acmeTree()];

/** The tree as the page holds it: selection and open groups in state; menus and choices recorded. */
function Tree({ onMenu, onActivate }: { onMenu: (row: TreeRow) => void; onActivate: (row: TreeRow) => void }) {
  const [selected, setSelected] = useState<string | null>(null);
  const [expanded, setExpanded] = useState(new Set([groupKey('root')]));
  const rows = flattenTree(accounts, { expanded });
  return (
    <TreeView
      rows={rows}
      selectedKey={selected}
      highlight=""
      label="Groups"
      hasMenu={(row) => row.kind === 'group' || row.kind === 'rootGroup'}
      onSelect={(row) => setSelected(row.key)}
      onToggle={(row) =>
        setExpanded((keys) => {
          const next = new Set(keys);
          if (next.has(row.key)) next.delete(row.key);
          else next.add(row.key);
          return next;
        })
      }
      onMenu={(row) => onMenu(row)}
      onActivate={onActivate}
    />
  );
}

const item = (name: string) => screen.getByRole('treeitem', { name: new RegExp(`^${name},`) });
const key = (name: string, options: { shiftKey?: boolean } = {}) =>
  act(() => {
    fireEvent.keyDown(document.activeElement!, { key: name, ...options });
  });

// Issue 36 item 6: the tree pattern for keyboards, and a menu for touch.
describe('the account tree view', () => {
  let onMenu: ReturnType<typeof vi.fn<(row: TreeRow) => void>>;
  let onActivate: ReturnType<typeof vi.fn<(row: TreeRow) => void>>;
  beforeEach(() => {
    onMenu = vi.fn();
    onActivate = vi.fn();
    render(<Tree onMenu={onMenu} onActivate={onActivate} />);
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('has one tab stop, which moves with the focus', async () => {
    const stops = () => screen.getAllByRole('treeitem').filter((row) => row.tabIndex === 0);
    expect(stops().map((row) => row.getAttribute('aria-label'))).toEqual(['Acme, 5 devices, Account']);
    act(() => item('Acme').focus());
    const second = screen.getAllByRole('treeitem')[1]!;
    key('ArrowDown');
    await vi.waitFor(() => expect(document.activeElement).toBe(second));
    expect(stops()).toEqual([second]);
    expect(second.getAttribute('aria-selected')).toBe('true');
    expect(item('Acme').tabIndex).toBe(-1);
    expect(screen.getByRole('tree').hasAttribute('tabindex')).toBe(false);
  });

  it('Enter chooses the row and opens a group; the arrows do not count as choosing', async () => {
    act(() => item('Acme').focus());
    key('ArrowDown');
    await vi.waitFor(() => expect(document.activeElement).toBe(screen.getAllByRole('treeitem')[1]));
    expect(onActivate).not.toHaveBeenCalled();
    act(() => item('Boiler Room').focus());
    fireEvent.click(item('Boiler Room'));
    expect(onActivate).toHaveBeenCalledTimes(1);
    onActivate.mockClear();
    key('Enter');
    expect(item('Boiler Room').getAttribute('aria-expanded')).toBe('true');
    expect(onActivate).toHaveBeenCalledTimes(1);
    expect(onActivate.mock.calls[0]![0].label).toBe('Boiler Room');
  });

  it('gives every item with actions a named "more" button', () => {
    const more = screen.getByRole('button', { name: 'More actions for Cold Store' });
    expect(more.getAttribute('aria-haspopup')).toBe('menu');
    fireEvent.click(more);
    expect(onMenu).toHaveBeenCalledTimes(1);
    expect(document.activeElement).toBe(item('Cold Store'));
  });

  it('opens the menu on Shift+F10', () => {
    act(() => item('Cold Store').focus());
    fireEvent.click(item('Cold Store'));
    key('F10', { shiftKey: true });
    expect(onMenu).toHaveBeenCalledTimes(1);
  });

  it(`opens the menu after a still press of ${LONG_PRESS_MS} ms, and the release chooses nothing more`, () => {
    vi.useFakeTimers();
    const row = item('Cold Store');
    fireEvent.pointerDown(row, { isPrimary: true, button: 0, clientX: 40, clientY: 40 });
    act(() => vi.advanceTimersByTime(LONG_PRESS_MS - 1));
    expect(onMenu).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onMenu).toHaveBeenCalledTimes(1);
    expect(onMenu.mock.calls[0]![0].label).toBe('Cold Store');
    fireEvent.pointerUp(row);
    fireEvent.click(row);
    fireEvent.contextMenu(row);
    expect(onActivate).not.toHaveBeenCalled();
    expect(onMenu).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['moves', (row: HTMLElement) => fireEvent.pointerMove(row, { clientX: 40, clientY: 60 })],
    ['is released', (row: HTMLElement) => fireEvent.pointerUp(row)],
    ['is cancelled (a scroll)', (row: HTMLElement) => fireEvent.pointerCancel(row)],
  ])('opens no menu when the press %s before the time', (_, end) => {
    vi.useFakeTimers();
    const row = item('Cold Store');
    fireEvent.pointerDown(row, { isPrimary: true, button: 0, clientX: 40, clientY: 40 });
    act(() => vi.advanceTimersByTime(LONG_PRESS_MS / 2));
    end(row);
    act(() => vi.advanceTimersByTime(LONG_PRESS_MS * 2));
    expect(onMenu).not.toHaveBeenCalled();
  });
});

describe('the account tree view on a touch screen', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it.each([
    [false, 36],
    [true, 44],
  ])('with a coarse pointer %s, draws rows %i px high, one under another', (coarse, height) => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: coarse && query === '(pointer: coarse)',
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    }));
    render(<Tree onMenu={vi.fn()} onActivate={vi.fn()} />);
    const [first, second] = screen.getAllByRole('treeitem');
    expect(first!.style.height).toBe(`${height}px`);
    expect(Number.parseFloat(second!.style.top) - Number.parseFloat(first!.style.top)).toBe(height);
  });
});
