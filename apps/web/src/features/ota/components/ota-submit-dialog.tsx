import { useMemo, useState, type FormEvent } from 'react';
import { OTA_SUBMIT_FAILED_MESSAGE } from '@fieldlink/api/ota';
import {
  OTA_DEFAULT_ABORT_CRITERIA,
  OTA_DEFAULT_DEVICES_PER_MINUTE,
  OTA_UPDATE_COMMAND_MAX_LENGTH,
  checkUpdateCommand,
  firmwareUpdateCommand,
  knownFirmware,
} from '@fieldlink/domain/ota';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import { listDevices } from '../../../lib/account-tree';
import { useAccount } from '../../../lib/api/get-account';
import { serverMessageOr } from '../../../lib/api-client';
import { showToast } from '../../../lib/app-store/app-store';
import { useOtaSubmit } from '../api/post-ota-submit';
import { otaOutcome, submittedText, type OtaOutcome } from '../model/ota-outcome';
import './ota.css';

const PACES = [6, 30, OTA_DEFAULT_DEVICES_PER_MINUTE, 300, 1200] as const;

/** A device of the fleet as the version picker reads it: its hardware string and firmware. */
export interface FleetDevice {
  id: string;
  hw: string | null;
  fw: string | null;
}

export interface OtaSubmitDialogProps {
  deviceIds: readonly string[];
  /** Every device the user sees, read when the dialog opens: the firmware versions known per family. */
  fleet?: () => readonly FleetDevice[];
  /** Administrators may send at once (skipApproval); the update still awaits their sign-off. */
  canSkipApproval: boolean;
  onClose: () => void;
}

/** The OTA submission of application §7 for the devices chosen in the device table. */
export function OtaSubmitDialog({ deviceIds, fleet, canSkipApproval, onClose }: OtaSubmitDialogProps) {
  const submit = useOtaSubmit();
  const { data: account } = useAccount();
  const names = useMemo(
    () => new Map((account ? listDevices(account.accounts) : []).map(({ device }) => [device.id, device.name])),
    [account],
  );
  // The versions the chosen devices' hardware families run, newest first (one list per family).
  const families = useMemo(() => {
    const devices = fleet?.() ?? [];
    const chosen = new Set(deviceIds);
    return knownFirmware(
      devices,
      devices.filter((device) => chosen.has(device.id)),
    );
    // The fleet is read once, when the dialog opens.
  }, []); // eslint-disable-line react-hooks/exhaustive-deps
  const versions = families.length === 1 ? families[0]!.versions : [];
  const [version, setVersion] = useState(versions[0] ?? '');
  // A command typed by hand is the advanced way; the only way when no version is known for one family.
  const [typed, setTyped] = useState(versions.length === 0);
  const [updateCommand, setUpdateCommand] = useState('');
  const [skipApproval, setSkipApproval] = useState(false);
  const [devicesPerMinute, setDevicesPerMinute] = useState<number>(OTA_DEFAULT_DEVICES_PER_MINUTE);
  const [touched, setTouched] = useState(false);
  const [outcome, setOutcome] = useState<OtaOutcome | null>(null);
  const check = checkUpdateCommand(typed ? updateCommand : firmwareUpdateCommand(version));
  const count = deviceIds.length;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!check.ok) return;
    submit.mutate(
      { deviceIds: [...deviceIds], updateCommand: check.updateCommand, skipApproval, devicesPerMinute },
      {
        onSuccess: (answer) => {
          const result = otaOutcome(deviceIds, answer, (id) => names.get(id));
          if (result.failures.length === 0) {
            showToast('success', submittedText(result));
            onClose();
            return;
          }
          setOutcome(result);
        },
        onError: (error) => showToast('error', serverMessageOr(error, OTA_SUBMIT_FAILED_MESSAGE)),
      },
    );
  };

  if (outcome) {
    return (
      <Dialog
        title="OTA update submitted with failures"
        description={
          outcome.accepted > 0
            ? `${submittedText(outcome)} ${outcome.failures.length} could not be updated:`
            : `${OTA_SUBMIT_FAILED_MESSAGE} for these devices:`
        }
        onClose={onClose}
        footer={
          <Button variant="primary" onClick={onClose}>
            Close
          </Button>
        }
      >
        <ul className="ota-failures" aria-label="Failed devices">
          {outcome.failures.map((failure) => (
            <li key={failure.deviceId}>
              <strong>{failure.name}</strong>
              <span>{failure.message}</span>
            </li>
          ))}
        </ul>
      </Dialog>
    );
  }

  return (
    <Dialog
      title="OTA update"
      description={`Send a firmware update to ${count === 1 ? '1 selected device' : `${count} selected devices`}.`}
      onClose={onClose}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="ota-submit-form" busy={submit.isPending}>
            {skipApproval ? 'Send update' : 'Submit for approval'}
          </Button>
        </>
      }
    >
      <form id="ota-submit-form" className="ota-form" onSubmit={onSubmit} noValidate>
        {families.length > 1 && (
          <InlineAlert tone="warning">
            The selected devices are of {families.length} hardware families (
            {families.map((entry) => entry.family ?? 'unknown').join(', ')}). A firmware image is built for one family:
            select devices of one family to pick a version, or enter a command.
          </InlineAlert>
        )}
        {!typed && (
          <SelectField
            label="Firmware version"
            value={version}
            data-autofocus
            onChange={(event) => setVersion(event.target.value)}
            hint={
              <>
                The versions {families[0]?.family ?? 'these'} devices of your fleet run. The devices are sent{' '}
                <code>{firmwareUpdateCommand(version)}</code>.
              </>
            }
          >
            {versions.map((known, position) => (
              <option key={known} value={known}>
                {known}
                {position === 0 ? ' (newest)' : ''}
              </option>
            ))}
          </SelectField>
        )}
        {typed && (
          <TextField
            label="Update command"
            name="updateCommand"
            value={updateCommand}
            maxLength={OTA_UPDATE_COMMAND_MAX_LENGTH + 20}
            placeholder="firmware 4.3.0, or the image URL"
            autoComplete="off"
            data-autofocus
            aria-invalid={touched && !check.ok}
            onChange={(event) => setUpdateCommand(event.target.value)}
            onBlur={() => setTouched(updateCommand !== '')}
            hint={touched && !check.ok ? check.error : 'Passed to the device as it is: a version or an image URL.'}
          />
        )}
        {versions.length > 0 && (
          <button type="button" className="ota-link" onClick={() => setTyped((current) => !current)}>
            {typed ? 'Pick a known version instead' : 'Advanced: enter an update command'}
          </button>
        )}
        <SelectField
          label="Rollout pace"
          value={devicesPerMinute}
          onChange={(event) => setDevicesPerMinute(Number(event.target.value))}
          hint={
            <>
              Online devices first, in the order selected; offline ones when they next connect. The rollout stops
              itself, cancelling the updates not yet sent, once {OTA_DEFAULT_ABORT_CRITERIA.failureThresholdPercent} %
              of at least {OTA_DEFAULT_ABORT_CRITERIA.minExecuted} finished updates have failed.
            </>
          }
        >
          {PACES.map((pace) => (
            <option key={pace} value={pace}>
              {pace} devices a minute
            </option>
          ))}
        </SelectField>
        {canSkipApproval ? (
          <label className="ota-check">
            <input type="checkbox" checked={skipApproval} onChange={(event) => setSkipApproval(event.target.checked)} />
            <span>
              <strong>Skip approval</strong>
              <small>
                Sent now, at the pace above, instead of waiting for approval. The devices stay on the pending list until
                an administrator signs the update off; signing off afterwards changes nothing on the devices.
              </small>
            </span>
          </label>
        ) : (
          <InlineAlert tone="info">
            Nothing is sent until an administrator approves the update in Pending OTA updates; then it goes out at the
            pace above.
          </InlineAlert>
        )}
      </form>
    </Dialog>
  );
}
