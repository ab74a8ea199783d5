import { useState } from 'react';
import type { Device } from '@fieldlink/api/device';
import { Button } from '../../../components/ui/button';
import { PlusIcon, TagIcon, TrashIcon } from '../../../components/ui/icons';
import { serverErrorMessage } from '../../../lib/api-client';
import { showToast } from '../../../lib/app-store/app-store';
import { useDeviceTags } from '../../../lib/api/put-device-tag';

/** Tags of the device (key and value), added, changed and removed in place. */
export function DeviceTags({ device, canEdit }: { device: Device; canEdit: boolean }) {
  const { save, remove } = useDeviceTags(device.id);
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const onError = (error: unknown) => showToast('error', serverErrorMessage(error));

  return (
    <section className="dash-card fl-card" aria-labelledby="tags-heading">
      <h2 id="tags-heading" className="dash-card__title">
        <TagIcon size={16} /> Tags
      </h2>
      {device.tags.length === 0 ? (
        <p className="dash-card__empty">No tags yet.</p>
      ) : (
        <ul className="device-tags">
          {device.tags.map((tag) => (
            <li key={tag.id} className="device-tags__item">
              <span className="device-tags__key">{tag.key}</span>
              <span className="device-tags__value" title={tag.value || undefined}>
                {tag.value || '—'}
              </span>
              {canEdit && (
                <button
                  type="button"
                  className="device-tags__remove"
                  aria-label={`Remove tag ${tag.key}`}
                  onClick={() => remove.mutate({ deviceId: device.id, tagId: tag.id }, { onError })}
                >
                  <TrashIcon size={14} />
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {canEdit && (
        <form
          className="device-tags__form"
          onSubmit={(event) => {
            event.preventDefault();
            if (key.trim() === '') return;
            const existing = device.tags.find((tag) => tag.key === key.trim());
            save.mutate(
              { deviceId: device.id, ...(existing ? { tagId: existing.id } : {}), key: key.trim(), value },
              {
                onSuccess: () => {
                  setKey('');
                  setValue('');
                },
                onError,
              },
            );
          }}
        >
          <input
            className="fl-input"
            aria-label="Tag key"
            placeholder="Key"
            value={key}
            maxLength={64}
            onChange={(e) => setKey(e.target.value)}
          />
          <input
            className="fl-input"
            aria-label="Tag value"
            placeholder="Value"
            value={value}
            maxLength={256}
            onChange={(e) => setValue(e.target.value)}
          />
          <Button type="submit" size="sm" busy={save.isPending} disabled={key.trim() === ''}>
            {!save.isPending && <PlusIcon size={14} />} Save
          </Button>
        </form>
      )}
    </section>
  );
}
