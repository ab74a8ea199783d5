// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Account, GroupNode } from '@fieldlink/api/account';
import { ApiError } from '../../../lib/api-client';
import { treeGroup } from '../../../lib/tree-fixtures';
import { indexDevices } from '../model/resolve-channels';
import { newWidgetDraft } from '../model/widget-form';
import { WIDGET_DEFINITIONS } from '../widgets/registry';
import type { WidgetDraft } from '../widgets/widget-definition';
import { WidgetEditorDialog } from './widget-editor-dialog';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const boiler = {
  id: 'device-1',
  name: 'Boiler 1',
  thingName: 'THING-1',
  channels: [
    { code: 'a1', name: 'Flow temperature' },
    { code: 'a2', name: 'Return temperature' },
  ],
};
const plant = treeGroup('group-plant', {
  name: 'Plant',
  accountId: 'account-1',
  kind: 'root',
  relativePath: './group-plant',
  devices: [boiler] as unknown as GroupNode['devices'],
  deviceIds: ['device-1'],
});
const accounts = [
  { id: 'account-1', name: 'Plant', appType: 'default', kind: 'customer', rootGroup: plant },
] as unknown as Account[];
const gauge = WIDGET_DEFINITIONS.radial;

function renderEditor(
  onSave: (draft: WidgetDraft) => Promise<unknown>,
  initialDraft = newWidgetDraft('radial', gauge),
) {
  const onClose = vi.fn();
  render(
    <WidgetEditorDialog
      definition={gauge}
      initialDraft={initialDraft}
      accounts={accounts}
      accountId="account-1"
      devices={indexDevices(accounts)}
      onSave={onSave}
      onClose={onClose}
    />,
  );
  return onClose;
}

const save = () => screen.getByTestId('widget-editor-save') as HTMLButtonElement;
const change = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });

afterEach(cleanup);

// Issue 37 item 5: the widget editor, as someone adding a gauge to a scene uses it.
describe('the widget editor', { timeout: 30_000 }, () => {
  it('keeps Save disabled and says the first problem until a channel is chosen', () => {
    const onSave = vi.fn(() => Promise.resolve());
    renderEditor(onSave);
    expect(screen.getByRole('dialog', { name: `Add ${gauge.label.toLowerCase()}` })).toBeTruthy();
    expect(save().disabled).toBe(true);
    expect(screen.getByTestId('widget-editor-problem').textContent).toBe('Choose a device.');
    change('widget-channel-device', 'device-1');
    expect(screen.getByTestId('widget-editor-problem').textContent).toBe('Choose a channel of this device.');
    change('widget-channel-code', 'a2');
    expect(screen.queryByTestId('widget-editor-problem')).toBeNull();
    expect(save().disabled).toBe(false);
    // The name is the channel's until the box is cleared.
    expect((screen.getByTestId('widget-name') as HTMLInputElement).value).toBe('Return temperature');
    expect(onSave).not.toHaveBeenCalled();
  });

  it('shows a range problem beside the field once it is left, in the domain’s words', () => {
    renderEditor(() => Promise.resolve());
    change('widget-channel-device', 'device-1');
    change('widget-channel-code', 'a1');
    change('widget-min', '80');
    fireEvent.blur(screen.getByTestId('widget-min'));
    change('widget-max', '20');
    expect(screen.getAllByText('The minimum must be less than the maximum.').length).toBeGreaterThan(0);
    change('widget-max', '');
    fireEvent.blur(screen.getByTestId('widget-max'));
    expect(screen.getAllByText('Enter a number.').length).toBeGreaterThan(0);
    expect(save().disabled).toBe(true);
  });

  it('asks for a name once the name is no longer taken from the channel', () => {
    renderEditor(() => Promise.resolve());
    change('widget-channel-device', 'device-1');
    change('widget-channel-code', 'a1');
    fireEvent.click(screen.getByLabelText('Inherit name from channel'));
    change('widget-name', '   ');
    fireEvent.blur(screen.getByTestId('widget-name'));
    expect(screen.getAllByText('Enter a name for the widget.').length).toBeGreaterThan(0);
    expect(save().disabled).toBe(true);
  });

  it('saves the widget as drafted and closes', async () => {
    const onSave = vi.fn((_draft: WidgetDraft) => Promise.resolve());
    const onClose = renderEditor(onSave);
    change('widget-channel-device', 'device-1');
    change('widget-channel-code', 'a1');
    change('widget-min', '0');
    change('widget-max', '120');
    change('widget-units', '°C');
    fireEvent.click(save());
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onSave).toHaveBeenCalledTimes(1);
    expect(onSave.mock.calls[0]![0]).toMatchObject({
      type: 'radial',
      doesInheritName: true,
      channels: [{ deviceId: 'device-1', code: 'a1' }],
      min: 0,
      max: 120,
      units: '°C',
    });
  });

  it('shows the server’s refusal and stays open', async () => {
    const onClose = renderEditor(() =>
      Promise.reject(new ApiError(403, 'You may not edit the scenes of this group.', null)),
    );
    change('widget-channel-device', 'device-1');
    change('widget-channel-code', 'a1');
    fireEvent.click(save());
    expect(await screen.findByText('You may not edit the scenes of this group.')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });
});
