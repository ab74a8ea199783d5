import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';

/**
 * Inventory load failure goes to /bp-no-data (application §8), remembering where it came from so
 * that page can try again.
 */
export function useLoadFailure(failed: boolean): void {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  useEffect(() => {
    if (failed) void navigate('/bp-no-data', { replace: true, state: { from: pathname } });
  }, [failed, navigate, pathname]);
}
