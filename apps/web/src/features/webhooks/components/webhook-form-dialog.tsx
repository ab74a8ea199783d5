import { useState, type FormEvent } from 'react';
import type { CreatedWebhook, Webhook } from '@fieldlink/api/webhooks';
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  WEBHOOK_FORMAT_LABELS,
  WEBHOOK_FORMATS,
  type WebhookEvent,
  type WebhookFormat,
} from '@fieldlink/domain/webhooks';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import { serverMessageOr } from '../../../lib/api-client';
import { useCreateWebhookMutation } from '../api/create-webhook';
import { useUpdateWebhookMutation } from '../api/update-webhook';
import { webhookUrlProblem } from '../model/webhook-text';

/** What a format is for, under the list. */
const FORMAT_HINTS: Readonly<Record<WebhookFormat, string>> = {
  json: 'The event as JSON, signed: for your own receiver.',
  slack: 'A message for a Slack incoming webhook URL (hooks.slack.com).',
  teams: 'A card for a Microsoft Teams incoming webhook or a Teams workflow’s webhook URL.',
};

/**
 * Adds a webhook (to `accountId`) or changes `webhook`: its URL, the events it takes (check boxes)
 * and its format. A new webhook's secret goes to `onCreated`, the one time it is ever shown.
 */
export function WebhookFormDialog({
  accountId,
  webhook,
  onCreated,
  onClose,
}: {
  accountId: string;
  webhook?: Webhook;
  onCreated: (created: CreatedWebhook) => void;
  onClose: () => void;
}) {
  const [url, setUrl] = useState(webhook?.url ?? '');
  const [events, setEvents] = useState<readonly WebhookEvent[]>(webhook?.events ?? ['alarm.raised']);
  const [format, setFormat] = useState<WebhookFormat>(webhook?.format ?? 'json');
  const [problem, setProblem] = useState<string | null>(null);
  const create = useCreateWebhookMutation();
  const update = useUpdateWebhookMutation();
  const busy = create.isPending || update.isPending;

  const onToggle = (event: WebhookEvent, on: boolean) =>
    setEvents((current) =>
      WEBHOOK_EVENTS.filter((candidate) => (candidate === event ? on : current.includes(candidate))),
    );

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const urlProblem = webhookUrlProblem(url);
    if (urlProblem) return setProblem(urlProblem);
    if (events.length === 0) return setProblem('Choose at least one event.');
    setProblem(null);
    const body = { url: url.trim(), events: [...events], format };
    try {
      if (webhook) {
        await update.mutateAsync({ id: webhook.id, body });
        onClose();
      } else {
        onCreated(await create.mutateAsync({ accountId, ...body }));
      }
    } catch (error) {
      setProblem(serverMessageOr(error, 'The webhook could not be saved.'));
    }
  };

  return (
    <Dialog
      title={webhook ? 'Edit webhook' : 'Add webhook'}
      description="Fieldlink posts each chosen event to this URL, signed with the webhook’s secret."
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form="webhook-form" busy={busy}>
            {webhook ? 'Save' : 'Add webhook'}
          </Button>
        </>
      }
    >
      <form id="webhook-form" className="webhook-form" noValidate onSubmit={(event) => void onSubmit(event)}>
        <TextField
          label="URL"
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="https://"
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          data-autofocus
        />
        <SelectField
          label="Format"
          hint={FORMAT_HINTS[format]}
          value={format}
          onChange={(event) => setFormat(event.target.value as WebhookFormat)}
        >
          {WEBHOOK_FORMATS.map((candidate) => (
            <option key={candidate} value={candidate}>
              {WEBHOOK_FORMAT_LABELS[candidate]}
            </option>
          ))}
        </SelectField>
        <fieldset className="webhook-events">
          <legend className="fl-field__label">Events</legend>
          {WEBHOOK_EVENTS.map((candidate) => (
            <label key={candidate} className="webhook-event">
              <input
                type="checkbox"
                checked={events.includes(candidate)}
                onChange={(change) => onToggle(candidate, change.target.checked)}
              />
              {WEBHOOK_EVENT_LABELS[candidate]}
            </label>
          ))}
        </fieldset>
        {problem && <InlineAlert tone="error">{problem}</InlineAlert>}
      </form>
    </Dialog>
  );
}
