import { useState } from 'react';
import type { CreatedWebhook, Webhook } from '@fieldlink/api/webhooks';
import { WEBHOOK_EVENT_LABELS, WEBHOOK_FORMAT_LABELS } from '@fieldlink/domain/webhooks';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { CopyIcon, FlashIcon, PencilIcon, PlusIcon, TrashIcon } from '../../../components/ui/icons';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { ListState } from '../../../components/ui/list-state';
import { PageHeader } from '../../../components/ui/page-header';
import { AccountSelect, useChosenAccount } from '../../../components/ui/account-select';
import { serverMessageOr } from '../../../lib/api-client';
import { showToast } from '../../../lib/app-store/app-store';
import { useCan } from '../../../lib/session/use-can';
import { useDeleteWebhookMutation } from '../api/delete-webhook';
import { useWebhooks } from '../api/get-webhooks';
import { useTestWebhookMutation } from '../api/test-webhook';
import { deliveryOutcome } from '../model/webhook-text';
import { WebhookDeliveries } from './webhook-deliveries';
import { WebhookFormDialog } from './webhook-form-dialog';
import './webhooks.css';

type Editing = { kind: 'add' } | { kind: 'edit'; webhook: Webhook };

/** The new webhook's signing secret, shown this once, with a copy button. */
function SecretDialog({ created, onClose }: { created: CreatedWebhook; onClose: () => void }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.secret);
      showToast('success', 'Secret copied.');
    } catch {
      showToast('error', 'The secret could not be copied: select it and copy by hand.');
    }
  };
  return (
    <Dialog
      title="Webhook added"
      description={created.url}
      onClose={onClose}
      footer={
        <Button variant="primary" onClick={onClose}>
          Done
        </Button>
      }
    >
      <div className="webhook-secret">
        <InlineAlert tone="warning">
          This signing secret is shown only now. Your receiver checks each delivery’s x-fieldlink-signature header with
          it (HMAC-SHA256 of the body).
        </InlineAlert>
        <code className="webhook-secret__value" aria-label="Signing secret">
          {created.secret}
        </code>
        <div>
          <Button onClick={() => void copy()}>
            <CopyIcon size={14} /> Copy secret
          </Button>
        </div>
      </div>
    </Dialog>
  );
}

/** Asks before a webhook goes, naming it. */
function DeleteWebhookDialog({ webhook, onClose }: { webhook: Webhook; onClose: () => void }) {
  const remove = useDeleteWebhookMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const onConfirm = async () => {
    try {
      await remove.mutateAsync(webhook.id);
      showToast('success', 'Webhook deleted.');
      onClose();
    } catch (error) {
      setProblem(serverMessageOr(error, 'The webhook could not be deleted.'));
    }
  };
  return (
    <Dialog
      title="Delete this webhook?"
      description="It receives no more events; its deliveries are deleted with it."
      tone="danger"
      size="sm"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="danger" busy={remove.isPending} onClick={() => void onConfirm()}>
            Delete
          </Button>
        </>
      }
    >
      <p className="webhook-url">{webhook.url}</p>
      {problem && <InlineAlert tone="error">{problem}</InlineAlert>}
    </Dialog>
  );
}

/** One webhook: where it posts, what and how, its buttons, and its recent deliveries. */
function WebhookCard({ webhook, onEdit, onDelete }: { webhook: Webhook; onEdit: () => void; onDelete: () => void }) {
  const test = useTestWebhookMutation();
  const [showDeliveries, setShowDeliveries] = useState(true);
  const onTest = async () => {
    try {
      const delivery = await test.mutateAsync(webhook.id);
      const how = `${deliveryOutcome(delivery)}${delivery.responseMs === null ? '' : ` in ${delivery.responseMs} ms`}`;
      if (delivery.state === 'delivered') showToast('success', `Test event delivered (${how}).`);
      else showToast('error', `The test event was not delivered: ${how}.`);
    } catch (error) {
      showToast('error', serverMessageOr(error, 'The test event could not be sent.'));
    }
  };
  return (
    <section className="fl-card webhook-card" aria-label={webhook.url} data-testid="webhook">
      <div className="webhook-card__head">
        <div className="webhook-card__what">
          <p className="webhook-url">{webhook.url}</p>
          <p className="fl-sub">
            {WEBHOOK_FORMAT_LABELS[webhook.format]} ·{' '}
            {webhook.events.map((event) => WEBHOOK_EVENT_LABELS[event]).join(', ')}
          </p>
        </div>
        <div className="webhook-card__actions">
          <Button size="sm" busy={test.isPending} onClick={() => void onTest()}>
            <FlashIcon size={14} /> Send test event
          </Button>
          <Button size="sm" onClick={onEdit} aria-label={`Edit ${webhook.url}`}>
            <PencilIcon size={14} /> Edit
          </Button>
          <Button size="sm" variant="danger" onClick={onDelete} aria-label={`Delete ${webhook.url}`}>
            <TrashIcon size={14} /> Delete
          </Button>
        </div>
      </div>
      <button
        type="button"
        className="webhook-card__toggle"
        aria-expanded={showDeliveries}
        onClick={() => setShowDeliveries((shown) => !shown)}
      >
        Recent deliveries
      </button>
      {showDeliveries && <WebhookDeliveries webhook={webhook} />}
    </section>
  );
}

/**
 * Accounts → Webhooks (issue 39 item 3): an account's administrators add receivers of its events,
 * see each one's recent deliveries, test, change and remove them. Offered only with the
 * administrator's right (the navigation's rule); opened by URL without it, it says who may.
 */
export function WebhooksPage() {
  const canManage = useCan('manageWebhooks');
  const { account, accounts, accountId, choose } = useChosenAccount();
  const webhooks = useWebhooks(canManage ? accountId : null);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);

  if (!canManage) {
    return (
      <div className="fl-page">
        <PageHeader title="Webhooks" summary=" " />
        <InlineAlert tone="info">Webhooks are managed by administrators (“Administrator” permission).</InlineAlert>
      </div>
    );
  }

  const list = webhooks.data?.webhooks ?? [];
  return (
    <div className="fl-page webhooks-page">
      <PageHeader
        title="Webhooks"
        summary={webhooks.data ? `${list.length} ${list.length === 1 ? 'webhook' : 'webhooks'}` : ' '}
      >
        <div className="webhooks-toolbar">
          <AccountSelect accounts={accounts} value={accountId} onChoose={choose} />
          <Button size="sm" variant="primary" disabled={!accountId} onClick={() => setEditing({ kind: 'add' })}>
            <PlusIcon size={14} /> Add webhook
          </Button>
        </div>
      </PageHeader>
      <ListState
        query={webhooks.isPending && accountId === null ? account : webhooks}
        noun="webhooks"
        empty={
          list.length > 0
            ? null
            : {
                icon: <FlashIcon size={22} />,
                title: 'No webhooks',
                text: 'A webhook posts the account’s alarms, connections, updates and reports to your own service, Slack or Microsoft Teams as they happen.',
              }
        }
      >
        <div className="webhooks-list">
          {list.map((webhook) => (
            <WebhookCard
              key={webhook.id}
              webhook={webhook}
              onEdit={() => setEditing({ kind: 'edit', webhook })}
              onDelete={() => setDeleting(webhook)}
            />
          ))}
        </div>
      </ListState>
      {editing && accountId && (
        <WebhookFormDialog
          accountId={accountId}
          {...(editing.kind === 'edit' && { webhook: editing.webhook })}
          onCreated={(answer) => {
            setEditing(null);
            setCreated(answer);
          }}
          onClose={() => setEditing(null)}
        />
      )}
      {created && <SecretDialog created={created} onClose={() => setCreated(null)} />}
      {deleting && <DeleteWebhookDialog webhook={deleting} onClose={() => setDeleting(null)} />}
    </div>
  );
}
