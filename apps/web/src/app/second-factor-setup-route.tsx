import { Navigate, useLocation, useNavigate } from 'react-router';
import { AuthLayout } from '../features/session/components/auth-layout';
import { RequiredEnrolment } from '../features/security/components/required-enrolment';
import { storeToken } from '../lib/session-token';

/** What the sign-in page hands over when the account requires a second factor the user lacks. */
interface SetupState {
  enrolmentToken?: string;
  email?: string;
}

/**
 * `/second-factor-setup` (issue 38 item 2): the sign-in page's enrol-only token, kept in the
 * navigation's state only (never stored), leads through the set-up and then into the console.
 */
export function SecondFactorSetupRoute() {
  const navigate = useNavigate();
  const state = useLocation().state as SetupState | null;
  if (!state?.enrolmentToken) return <Navigate to="/signin" replace />;
  return (
    <AuthLayout
      title="Set up two-factor authentication"
      subtitle="Your account requires a second factor. Set one up to continue."
    >
      <RequiredEnrolment
        enrolmentToken={state.enrolmentToken}
        email={state.email ?? ''}
        onSignedIn={(jwt) => {
          storeToken(jwt);
          void navigate('/loading', { replace: true });
        }}
      />
    </AuthLayout>
  );
}
