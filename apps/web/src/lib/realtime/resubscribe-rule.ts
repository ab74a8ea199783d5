/**
 * After a reconnect, device subscriptions are re-established (behind a loading screen) only when the
 * page shows live device data: links containing dash/, inv/ or brew (specification §2).
 */
export function needsResubscribeAfterReconnect(pathname: string): boolean {
  return pathname.includes('dash/') || pathname.includes('inv/') || pathname.includes('brew');
}
