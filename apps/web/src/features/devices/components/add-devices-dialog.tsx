import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import type { Account } from '@fieldlink/api/account';
import {
  DEVICE_PROTOCOL_DOC_PATH,
  type DeviceImportAnswer,
  type ImportedDevice,
  type ProvisionDeviceAnswer,
} from '@fieldlink/api/device';
import { isThingName } from '@fieldlink/api/mqtt-topics';
import { fileDay } from '@fieldlink/domain/date-format';
import {
  DEVICE_IMPORT_EXAMPLE,
  DEVICE_NAME_MAX_LENGTH,
  DEVICE_SERIAL_MAX_LENGTH,
  readDeviceImport,
} from '@fieldlink/domain/device-import';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { CopyIcon, DownloadIcon, UploadIcon } from '../../../components/ui/icons';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import { apiBaseUrl } from '../../../lib/api-address';
import { serverErrorMessage } from '../../../lib/api-client';
import { showToast } from '../../../lib/app-store/app-store';
import { downloadCsv } from '../../../lib/download-csv';
import { usePageClock } from '../../../lib/page-time-zone';
import { useImportDevices } from '../api/import-devices';
import { useProvisionDevice } from '../api/provision-device';
import { connectionExample, credentialsCsv, devicePlaces } from '../model/new-devices';
import './add-devices.css';

export type AddDevicesMode = 'one' | 'import';

/** Where the dialog was opened: the account, and the group when it was a group's menu. */
export interface AddDevicesPlace {
  accountId: string;
  groupId: string | null;
}

/** Rows of an import preview shown at once; the rest are counted (the errors always shown first). */
const PREVIEW_ROWS = 200;

async function copy(text: string, what: string) {
  try {
    await navigator.clipboard.writeText(text);
    showToast('success', `${what} copied.`);
  } catch {
    showToast('error', `${what} could not be copied: select it and copy by hand.`);
  }
}

function CopyButton({ text, what }: { text: string; what: string }) {
  return (
    <Button size="sm" onClick={() => void copy(text, what)} aria-label={`Copy ${what.toLowerCase()}`}>
      <CopyIcon size={14} /> Copy
    </Button>
  );
}

/**
 * Adds devices (issue 35 item 6): one, with its name, serial or thing name and group, whose MQTT
 * credentials are then shown this once; or many from a CSV file, previewed row by row and imported
 * all or none, with the credentials downloadable once as CSV.
 */
export function AddDevicesDialog({
  accounts,
  place,
  mode: initialMode,
  onClose,
}: {
  accounts: readonly Account[];
  place: AddDevicesPlace;
  mode: AddDevicesMode;
  onClose: () => void;
}) {
  const [mode, setMode] = useState(initialMode);
  const [done, setDone] = useState<ReactNode>(null);
  const account = accounts.find((candidate) => candidate.id === place.accountId) ?? accounts[0];
  const accountName = placeName(accounts, place) ?? account?.name ?? '';

  return (
    <Dialog
      title={done ? 'Devices added' : mode === 'one' ? 'Add a device' : 'Import devices'}
      description={done ? undefined : `Into ${accountName}`}
      size="lg"
      onClose={onClose}
    >
      {done ?? (
        <>
          <div className="add-devices__tabs" role="tablist" aria-label="How to add">
            {(
              [
                ['one', 'One device'],
                ['import', 'Import a CSV file'],
              ] as const
            ).map(([value, label]) => (
              <button
                key={value}
                type="button"
                role="tab"
                aria-selected={mode === value}
                className="add-devices__tab"
                onClick={() => setMode(value)}
              >
                {label}
              </button>
            ))}
          </div>
          {mode === 'one' ? (
            <OneDevice
              accounts={accounts}
              place={place}
              onCancel={onClose}
              onAdded={(answer) => setDone(<Credentials answer={answer} onClose={onClose} />)}
            />
          ) : (
            <ImportFile
              accountId={place.accountId}
              accountName={account?.rootGroup.name ?? accountName}
              onCancel={onClose}
              onImported={(answer) => setDone(<ImportedCredentials answer={answer} onClose={onClose} />)}
            />
          )}
        </>
      )}
    </Dialog>
  );
}

/** The name of the group the dialog was opened on, or of the account. */
function placeName(accounts: readonly Account[], place: AddDevicesPlace): string | null {
  return devicePlaces(accounts).find((candidate) => candidate.groupId === place.groupId)?.label ?? null;
}

function OneDevice({
  accounts,
  place,
  onCancel,
  onAdded,
}: {
  accounts: readonly Account[];
  place: AddDevicesPlace;
  onCancel: () => void;
  onAdded: (answer: ProvisionDeviceAnswer) => void;
}) {
  const places = useMemo(() => devicePlaces(accounts), [accounts]);
  const inbox = places.find((candidate) => candidate.accountId === place.accountId && candidate.isNewDevices);
  const [name, setName] = useState('');
  const [sn, setSn] = useState('');
  const [thingName, setThingName] = useState('');
  const [groupId, setGroupId] = useState(place.groupId ?? inbox?.groupId ?? places[0]?.groupId ?? '');
  const [error, setError] = useState<string | null>(null);
  const provision = useProvisionDevice();
  const thingProblem =
    thingName.trim() !== '' && !isThingName(thingName.trim())
      ? 'A thing name is 3 to 64 letters, digits, _ or -.'
      : null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '' || thingProblem) return;
    setError(null);
    provision.mutate(
      {
        name: name.trim(),
        groupId,
        ...(sn.trim() && { sn: sn.trim() }),
        ...(thingName.trim() && { thingName: thingName.trim() }),
      },
      { onSuccess: onAdded, onError: (failure) => setError(serverErrorMessage(failure)) },
    );
  };

  return (
    <form className="add-devices__form" onSubmit={onSubmit}>
      <TextField
        label="Name"
        value={name}
        maxLength={DEVICE_NAME_MAX_LENGTH}
        onChange={(event) => setName(event.target.value)}
        placeholder="e.g. Boiler 3"
        required
        data-autofocus
      />
      <div className="add-devices__pair">
        <TextField
          label="Serial number"
          value={sn}
          maxLength={DEVICE_SERIAL_MAX_LENGTH}
          onChange={(event) => setSn(event.target.value)}
          hint="As printed on the device; optional."
        />
        <TextField
          label="Thing name"
          value={thingName}
          maxLength={64}
          onChange={(event) => setThingName(event.target.value)}
          hint={thingProblem ?? 'The device’s MQTT identity, if it has one already; left empty, one is made.'}
          aria-invalid={thingProblem !== null}
        />
      </div>
      <SelectField label="Group" value={groupId} onChange={(event) => setGroupId(event.target.value)}>
        {places.map((candidate) => (
          <option key={candidate.groupId} value={candidate.groupId}>
            {candidate.label}
          </option>
        ))}
      </SelectField>
      {error && <InlineAlert tone="error">{error}</InlineAlert>}
      <div className="add-devices__footer">
        <Button onClick={onCancel}>Cancel</Button>
        <Button
          variant="primary"
          type="submit"
          busy={provision.isPending}
          disabled={name.trim() === '' || thingProblem !== null}
        >
          Add device
        </Button>
      </div>
    </form>
  );
}

function Credentials({ answer, onClose }: { answer: ProvisionDeviceAnswer; onClose: () => void }) {
  const { thingName, password } = answer.credentials;
  const example = connectionExample(answer.brokerUrl, thingName, password);
  const facts: [string, string][] = [
    ['Thing name (client id and user name)', thingName],
    ['Password', password],
    ['Broker', answer.brokerUrl],
  ];
  return (
    <div className="add-devices__credentials">
      <p>
        <strong>{answer.device.name}</strong> is added. It connects with these credentials.
      </p>
      <InlineAlert tone="warning">
        Copy the password now: it is shown this once. Fieldlink keeps only a hash of it.
      </InlineAlert>
      <dl className="add-devices__facts">
        {facts.map(([label, value]) => (
          <div key={label} className="add-devices__fact">
            <dt>{label}</dt>
            <dd>
              <code data-testid={label === 'Password' ? 'device-password' : undefined}>{value}</code>
              <CopyButton text={value} what={label.replace(/ \(.*\)$/, '')} />
            </dd>
          </div>
        ))}
      </dl>
      <div className="add-devices__example">
        <div className="add-devices__example-head">
          <span>Try it: publish one frame as the device</span>
          <CopyButton text={example} what="Example" />
        </div>
        <pre>{example}</pre>
      </div>
      <p className="fl-muted">
        What a device sends and receives is in the{' '}
        <a href={`${apiBaseUrl()}${DEVICE_PROTOCOL_DOC_PATH}`} target="_blank" rel="noreferrer">
          device protocol
        </a>
        .
      </p>
      <div className="add-devices__footer">
        <Button variant="primary" onClick={onClose}>
          Done
        </Button>
      </div>
    </div>
  );
}

function ImportFile({
  accountId,
  accountName,
  onCancel,
  onImported,
}: {
  accountId: string;
  accountName: string;
  onCancel: () => void;
  onImported: (answer: DeviceImportAnswer) => void;
}) {
  const [csv, setCsv] = useState<{ name: string; text: string } | null>(null);
  const [preview, setPreview] = useState<DeviceImportAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const check = useImportDevices();
  const run = useImportDevices();

  const onFile = async (file: File | undefined) => {
    setPreview(null);
    setError(null);
    if (!file) return setCsv(null);
    const text = await file.text();
    setCsv({ name: file.name, text });
    // The file's own faults are known at once; the groups and serials need the server.
    const read = readDeviceImport(text);
    if (read.fileError !== null) return setError(read.fileError);
    check.mutate(
      { accountId, csv: text, dryRun: true },
      { onSuccess: setPreview, onError: (failure) => setError(serverErrorMessage(failure)) },
    );
  };
  const onImport = () => {
    if (!csv) return;
    setError(null);
    run.mutate(
      { accountId, csv: csv.text, dryRun: false },
      { onSuccess: onImported, onError: (failure) => setError(serverErrorMessage(failure)) },
    );
  };

  const faulty = preview?.rows.filter((row) => row.errors.length > 0) ?? [];
  const valid = preview !== null && preview.fileError === null && faulty.length === 0;
  const shown = preview ? [...faulty, ...preview.rows.filter((row) => row.errors.length === 0)] : [];

  return (
    <div className="add-devices__form">
      <p className="fl-muted add-devices__note">
        One device a line: <code>name,serial,group path,tags</code>. Group paths are read from {accountName} down (
        <code>Boiler Room / East</code>); an empty one puts the device in New Devices. Tags are optional, written{' '}
        <code>key=value; key=value</code>. Nothing is written unless every row is right.
      </p>
      <div className="add-devices__file">
        <label className="fl-button fl-button--secondary add-devices__pick">
          <UploadIcon size={15} /> Choose a CSV file
          <input
            type="file"
            accept=".csv,text/csv"
            aria-label="CSV file"
            onChange={(event) => void onFile(event.target.files?.[0])}
          />
        </label>
        <span className="fl-muted">{csv ? csv.name : 'No file chosen'}</span>
        <Button size="sm" variant="ghost" onClick={() => downloadCsv(DEVICE_IMPORT_EXAMPLE, 'devices-example.csv')}>
          <DownloadIcon size={14} /> Example file
        </Button>
      </div>
      {check.isPending && <p className="fl-muted">Checking the file…</p>}
      {preview?.fileError && <InlineAlert tone="error">{preview.fileError}</InlineAlert>}
      {preview && preview.fileError === null && (
        <>
          <p role="status" className={faulty.length > 0 ? 'add-devices__summary--bad' : 'add-devices__summary--good'}>
            {faulty.length > 0
              ? `${faulty.length} of ${preview.rows.length} rows ${faulty.length === 1 ? 'has' : 'have'} errors. Fix the file and choose it again; nothing is imported until every row is right.`
              : `${preview.rows.length} ${preview.rows.length === 1 ? 'device is' : 'devices are'} ready to import.`}
          </p>
          <div className="add-devices__preview">
            <table className="fl-table" aria-label="Rows of the file">
              <thead>
                <tr>
                  <th>Line</th>
                  <th>Name</th>
                  <th>Serial</th>
                  <th>Group</th>
                  <th>Tags</th>
                  <th>Problems</th>
                </tr>
              </thead>
              <tbody>
                {shown.slice(0, PREVIEW_ROWS).map((row) => (
                  <tr key={row.line} className={row.errors.length > 0 ? 'add-devices__row--bad' : undefined}>
                    <td>{row.line}</td>
                    <td>{row.name}</td>
                    <td>{row.sn}</td>
                    <td>{row.groupPath}</td>
                    <td>{row.tags.map((tag) => `${tag.key}=${tag.value}`).join('; ')}</td>
                    <td>{row.errors.length === 0 ? 'OK' : row.errors.join(' ')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {shown.length > PREVIEW_ROWS && (
              <p className="fl-muted">and {(shown.length - PREVIEW_ROWS).toLocaleString()} more rows.</p>
            )}
          </div>
        </>
      )}
      {error && <InlineAlert tone="error">{error}</InlineAlert>}
      <div className="add-devices__footer">
        <Button onClick={onCancel}>Cancel</Button>
        <Button variant="primary" busy={run.isPending} disabled={!valid} onClick={onImport}>
          {valid ? `Import ${preview.rows.length} ${preview.rows.length === 1 ? 'device' : 'devices'}` : 'Import'}
        </Button>
      </div>
    </div>
  );
}

function ImportedCredentials({ answer, onClose }: { answer: DeviceImportAnswer; onClose: () => void }) {
  const [saved, setSaved] = useState(false);
  const clock = usePageClock();
  const devices: readonly ImportedDevice[] = answer.devices;
  const onDownload = () => {
    downloadCsv(
      credentialsCsv(devices, answer.brokerUrl),
      `device-credentials-${fileDay(Date.now(), clock.timeZone)}.csv`,
    );
    setSaved(true);
  };
  return (
    <div className="add-devices__credentials">
      <p role="status">
        Imported {devices.length} {devices.length === 1 ? 'device' : 'devices'}. Each connects to {answer.brokerUrl}{' '}
        with its thing name as client id and user name, and its password.
      </p>
      <InlineAlert tone="warning">
        Download the credentials now: the passwords are shown this once. Fieldlink keeps only hashes of them.
      </InlineAlert>
      <div className="add-devices__file">
        <Button variant={saved ? 'secondary' : 'primary'} onClick={onDownload}>
          <DownloadIcon size={15} /> Download credentials (CSV)
        </Button>
        {saved && <span className="fl-muted">Saved. Keep the file somewhere safe.</span>}
      </div>
      <p className="fl-muted">
        What a device sends and receives is in the{' '}
        <a href={`${apiBaseUrl()}${DEVICE_PROTOCOL_DOC_PATH}`} target="_blank" rel="noreferrer">
          device protocol
        </a>
        .
      </p>
      <div className="add-devices__footer">
        <Button variant={saved ? 'primary' : 'secondary'} onClick={onClose}>
          Done
        </Button>
      </div>
    </div>
  );
}
