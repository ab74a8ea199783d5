import type { PushSubscriptionBody, PushSubscriptionsAnswer, PushTestAnswer } from '@fieldlink/api/push';
import { apiRequest } from './api-client';

/**
 * This browser's Web Push (issue 39 item 2): whether it can show the console's notifications, and
 * turning them on and off for the signed-in user. The subscription is the browser's (the service
 * worker's push manager); the server keeps it per user.
 */

/** Where notifications stand on this browser. */
export type BrowserPushState =
  /** No service worker, no Push API (an iPhone's Safari outside an installed app, a development build). */
  | 'unsupported'
  /** The person (or a policy) blocked notifications for this site in the browser's settings. */
  | 'blocked'
  | 'off'
  | 'on';

/** `POST /push-subscriptions`. */
const postPushSubscription = (body: PushSubscriptionBody) =>
  apiRequest<PushSubscriptionsAnswer>('POST', '/push-subscriptions', { body });

/** `DELETE /push-subscriptions`. */
const deletePushSubscription = (endpoint: string) =>
  apiRequest<PushSubscriptionsAnswer>('DELETE', '/push-subscriptions', { body: { endpoint } });

/** `POST /push-subscriptions/test`: a test notification to every browser of the caller. */
export const postPushTest = () => apiRequest<PushTestAnswer>('POST', '/push-subscriptions/test');

function supported(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

async function currentSubscription(): Promise<PushSubscription | null> {
  if (!supported()) return null;
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** Where notifications stand on this browser now. */
export async function browserPushState(): Promise<BrowserPushState> {
  if (!supported() || !(await navigator.serviceWorker.getRegistration())) return 'unsupported';
  if (Notification.permission === 'denied') return 'blocked';
  return (await currentSubscription()) && Notification.permission === 'granted' ? 'on' : 'off';
}

/** The application server key as `PushManager.subscribe` takes it (bytes, not base64url). */
function keyBytes(base64Url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64Url.replace(/-/g, '+').replace(/_/g, '/');
  const text = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(text, (char) => char.charCodeAt(0));
}

/**
 * Asks the browser for permission (its own prompt), subscribes with the installation's key and saves
 * the subscription for the signed-in user; answers the state it ends in ('blocked' when refused).
 */
export async function turnBrowserPushOn(publicKey: string): Promise<BrowserPushState> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return permission === 'denied' ? 'blocked' : 'off';
  const registration = await navigator.serviceWorker.ready;
  // A subscription this browser already has (made for the user before, or another since signed out)
  // is saved for the user now signed in; the server moves it to them.
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
  await postPushSubscription(subscription.toJSON() as PushSubscriptionBody);
  return 'on';
}

/** Removes this browser's subscription from the user and from the browser. */
export async function turnBrowserPushOff(): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  // Gone from the server already (removed, or never saved for this user): the browser's is removed still.
  await deletePushSubscription(subscription.endpoint).catch(() => undefined);
  await subscription.unsubscribe();
}
