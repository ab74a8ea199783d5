import { useMemo } from 'react';
import { landingFor, type NavigationSubject } from '@fieldlink/domain/app-variant';
import type { Permission } from '@fieldlink/domain/permissions';
import { homeGroupId, scenesHomeRoute } from '../../lib/account-tree';
import { useAccount } from '../../lib/api/get-account';
import { readLastDevice } from '../../lib/last-device';
import { appStore } from '../../lib/app-store/app-store';
import { useStore } from '../../lib/use-store';
import { landingPath } from '../../features/session/model/after-loading-route';
import { offeredDefinitions, type NavRoutes, type SectionDefinition } from './sections';

/**
 * The sections and tabs the signed-in user is offered (the domain's variant and visibility rule) and
 * the routes from the account tree that some tabs open, and the user's home (the landing page).
 */
export function useNavigation(): { definitions: SectionDefinition[]; routes: NavRoutes; home: string } {
  const permissions = useStore(appStore, (s) => s.session.permissions);
  const appType = useStore(appStore, (s) => s.session.appType);
  const userVariant = useStore(appStore, (s) => s.session.account?.userVariant ?? null);
  const email = useStore(appStore, (s) => s.session.email);
  const account = useAccount();
  const subject: NavigationSubject = useMemo(
    () => ({ permissions: permissions as Permission[], userVariant, appType }),
    [permissions, userVariant, appType],
  );
  const definitions = useMemo(() => offeredDefinitions(subject), [subject]);
  const routes = useMemo(
    () => ({
      scenes: account.data ? scenesHomeRoute(account.data.accounts) : null,
      homeGroupId: account.data ? homeGroupId(account.data.accounts) : null,
      rootGroupId: account.data?.accounts[0]?.rootGroup.id ?? null,
    }),
    [account.data],
  );
  const home = useMemo(
    () =>
      account.data
        ? landingPath(landingFor(subject), account.data.accounts, appType, readLastDevice(email))
        : '/loading',
    [account.data, subject, appType, email],
  );
  return { definitions, routes, home };
}
