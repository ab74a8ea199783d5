import { InlineAlert } from '../../../components/ui/inline-alert';
import { PageHeader } from '../../../components/ui/page-header';
import { AccountSelect, useChosenAccount } from '../../../components/ui/account-select';
import { serverErrorMessage, serverMessageOr } from '../../../lib/api-client';
import { showToast } from '../../../lib/app-store/app-store';
import { useReaderClock } from '../../../lib/page-time-zone';
import { useNotificationPreferences } from '../api/get-notification-preferences';
import { usePutNotificationPreferencesMutation } from '../api/put-notification-preferences';
import { useOnCallRota } from '../api/get-on-call-rota';
import { usePutOnCallRotaMutation } from '../api/put-on-call-rota';
import { NotificationPreferencesForm } from './notification-preferences-form';
import { OnCallRotaEditor } from './on-call-rota-editor';
import './notifications.css';

/** Account menu → Notifications (/account/notifications): who gets what (issue 39 item 5). */
export function NotificationsPage() {
  const clock = useReaderClock();
  const preferences = useNotificationPreferences();
  const savePreferences = usePutNotificationPreferencesMutation();
  const { accounts, accountId, choose } = useChosenAccount();
  const rota = useOnCallRota(accountId);
  const saveRota = usePutOnCallRotaMutation();

  return (
    <div className="fl-page notifications-page">
      <PageHeader title="Notifications" summary="Which alarms reach you, how, and who is on call" />
      <section className="fl-card notifications-card" aria-labelledby="notifications-mine">
        <h2 id="notifications-mine">Your alarm notifications</h2>
        {preferences.error && <InlineAlert tone="error">{serverErrorMessage(preferences.error)}</InlineAlert>}
        {preferences.data && (
          <NotificationPreferencesForm
            preferences={preferences.data}
            timeZone={clock.timeZone}
            saving={savePreferences.isPending}
            onSave={(body) =>
              savePreferences.mutate(body, {
                onSuccess: () => showToast('success', 'Notification settings saved.'),
                onError: (error) => showToast('error', serverMessageOr(error, 'Could not save notification settings.')),
              })
            }
          />
        )}
      </section>
      {accountId && (
        <section className="fl-card notifications-card" aria-labelledby="notifications-rota">
          <div className="notifications-card__head">
            <h2 id="notifications-rota">On-call rota</h2>
            <AccountSelect accounts={accounts} value={accountId} onChoose={choose} />
          </div>
          {rota.error && <InlineAlert tone="error">{serverErrorMessage(rota.error)}</InlineAlert>}
          {rota.data && (
            <OnCallRotaEditor
              key={`${rota.data.accountId}-${rota.dataUpdatedAt}`}
              rota={rota.data}
              clock={clock}
              now={Date.now()}
              saving={saveRota.isPending}
              onSave={(shifts) =>
                saveRota.mutate(
                  { accountId, body: { shifts } },
                  {
                    onSuccess: () => showToast('success', 'On-call rota saved.'),
                    onError: (error) => showToast('error', serverMessageOr(error, 'Could not save the rota.')),
                  },
                )
              }
            />
          )}
        </section>
      )}
    </div>
  );
}
