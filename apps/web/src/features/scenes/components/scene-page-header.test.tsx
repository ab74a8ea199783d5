// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { scene } from '../model/fixtures';
import { ScenePageHeader } from './scene-page-header';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

afterEach(cleanup);

function renderHeader(props: Partial<Parameters<typeof ScenePageHeader>[0]> = {}) {
  const onToggleLock = vi.fn();
  const onAddWidget = vi.fn();
  render(
    <ScenePageHeader
      ancestors={['Fieldlink Supply', 'Customers']}
      name="Acme Controls"
      scene={scene('s1')}
      canEditScene
      widgetsEditable
      lockPending={false}
      onToggleLock={onToggleLock}
      onAddWidget={onAddWidget}
      {...props}
    />,
  );
  return { onToggleLock, onAddWidget };
}

// Issue 37 item 5: the scene page's head, for each permission.
describe('the scene page head', () => {
  it('names the group under its place in the tree', () => {
    renderHeader();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Acme Controls');
    expect(screen.getByRole('navigation', { name: 'Group' }).textContent).toBe('Fieldlink SupplyCustomers');
  });

  it.each([
    ['an open scene', false, 'Lock layout', 'false'],
    ['a locked scene', true, 'Unlock layout', 'true'],
  ])('offers who may change %s to toggle its lock', (_, isGridLocked, label, pressed) => {
    const { onToggleLock } = renderHeader({ scene: scene('s1', { isGridLocked }) });
    const lock = screen.getByRole('button', { name: label });
    expect(lock.getAttribute('aria-pressed')).toBe(pressed);
    fireEvent.click(lock);
    expect(onToggleLock).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['a locked scene', true, true],
    ['an open scene', false, false],
  ])('shows who may not change %s only whether it is locked', (_, isGridLocked, noted) => {
    renderHeader({ scene: scene('s1', { isGridLocked }), canEditScene: false, widgetsEditable: false });
    expect(screen.queryByTestId('scene-lock')).toBeNull();
    expect(screen.queryByTestId('widget-add')).toBeNull();
    expect(screen.queryByText('Layout locked') !== null).toBe(noted);
  });

  it('offers Add widget only where widgets may be changed', () => {
    const { onAddWidget } = renderHeader({ canEditScene: false });
    fireEvent.click(screen.getByRole('button', { name: 'Add widget' }));
    expect(onAddWidget).toHaveBeenCalledTimes(1);
  });

  it('offers nothing before a scene is shown', () => {
    renderHeader({ scene: null });
    expect(screen.queryAllByRole('button')).toHaveLength(0);
  });
});
