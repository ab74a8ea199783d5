import { Navigate } from 'react-router';
import { useNavigation } from './use-navigation';

/**
 * `/coming-soon` stays a signed-in route of the specification, but every area it once stood for is
 * built: it now takes the user to their variant's landing page instead of a placeholder.
 */
export function HomeRedirect() {
  const { home } = useNavigation();
  // Until the account tree has arrived the home is not known; the shell shows its own loading state.
  if (home === '/loading') return null;
  return <Navigate to={home} replace />;
}
