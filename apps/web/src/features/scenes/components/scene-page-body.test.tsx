// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { scene, widget } from '../model/fixtures';
import { ScenePageBody, type ScenesAnswer } from './scene-page-body';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

afterEach(cleanup);

function renderBody(answer: ScenesAnswer, props: Partial<Parameters<typeof ScenePageBody>[0]> = {}) {
  const handlers = { onAddScene: vi.fn(), onAddWidget: vi.fn() };
  render(
    <MemoryRouter>
      <ScenePageBody
        answer={answer}
        scene={null}
        group={{ id: 'g1', name: 'Boiler Room' }}
        accountId="acc1"
        canAddScene
        widgetsEditable
        grid={(shown) => <p>grid of {shown.name}</p>}
        {...handlers}
        {...props}
      />
    </MemoryRouter>,
  );
  return handlers;
}

const withScene = (s = scene('s1')): ScenesAnswer => ({ status: 'success', scenes: [s] });

// Issue 37 item 5: what stands in for the grid, and who is offered the next step.
describe('the scene page body', () => {
  it('shows a skeleton while the scenes are read', () => {
    renderBody({ status: 'pending' });
    expect(screen.getByRole('status', { name: 'Loading scenes' })).toBeTruthy();
  });

  it.each([
    ['a missing group', new ApiError(404, 'Not found', null), 'Dashboard not found'],
    ['any other refusal', new ApiError(500, 'Boom', null), 'Could not read the scenes'],
  ])('names %s and retries on Try again', (_, error, title) => {
    const retry = vi.fn();
    renderBody({ status: 'error', error, retry });
    expect(screen.getByText(title)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(retry).toHaveBeenCalledTimes(1);
  });

  it('offers who may add scenes to create the first', () => {
    const { onAddScene } = renderBody({ status: 'success', scenes: [] });
    expect(screen.getByText(/A scene is a dashboard of widgets for the devices of Boiler Room/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Create a scene' }));
    expect(onAddScene).toHaveBeenCalledTimes(1);
  });

  it('tells who may not that there are no dashboards yet', () => {
    renderBody({ status: 'success', scenes: [] }, { canAddScene: false });
    expect(screen.getByText('Boiler Room has no dashboards yet.')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('links a scene that no longer exists to the group’s first', () => {
    renderBody(withScene(), { scene: null });
    expect(screen.getByText('This scene no longer exists')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open Boiler Room’s first scene' }).getAttribute('href')).toBe(
      '/dash/acc1/g1',
    );
  });

  it.each([
    [true, 'Add widgets to watch live values, operate setpoints and relays, chart logs or write notes.'],
    [false, 'No widgets have been added to this scene yet.'],
  ])('says an empty scene is empty (widgets editable: %s)', (widgetsEditable, note) => {
    const { onAddWidget } = renderBody(withScene(), { scene: scene('s1'), widgetsEditable });
    expect(screen.getByText(note)).toBeTruthy();
    const add = screen.queryByRole('button', { name: 'Add a widget' });
    expect(add !== null).toBe(widgetsEditable);
    if (add) fireEvent.click(add);
    expect(onAddWidget).toHaveBeenCalledTimes(widgetsEditable ? 1 : 0);
  });

  it('draws the grid of a scene with widgets', () => {
    const shown = scene('s1', { name: 'Boilers', widgets: [widget('w1')] });
    renderBody(withScene(shown), { scene: shown });
    expect(screen.getByText('grid of Boilers')).toBeTruthy();
  });
});
