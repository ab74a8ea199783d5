import { useState } from 'react';
import { useNavigate } from 'react-router';
import { demoFleet } from '@fieldlink/simulation/demo-fleet';
import { Button } from '../../../components/ui/button';
import { SparkIcon } from '../../../components/ui/icons';
import { beginDemo, endDemo, readDemoApp } from '../../../lib/demo/demo-session';
import { endSession } from '../../../lib/session/end-session';
import { deleteDemoRecords } from '../backend/demo-records';
import './demo.css';

/**
 * The strip a demo shows under the shell's bars: what this is, a reset that starts the demo over
 * (forgetting what the prospect recorded), and the way out to the other demos.
 */
export function DemoBar() {
  const navigate = useNavigate();
  const [resetting, setResetting] = useState(false);
  const appType = readDemoApp();
  if (!appType) return null;

  const reset = async () => {
    setResetting(true);
    endDemo();
    await deleteDemoRecords(appType);
    beginDemo(appType);
    // A fresh page: the demo begins again, its plants replaying the 30 days up to now.
    window.location.assign('/loading');
  };

  const exit = () => {
    void navigate('/demo', { replace: true });
    endSession();
  };

  return (
    <div className="demo-bar" role="region" aria-label="Demo">
      <SparkIcon size={16} aria-hidden="true" />
      <span className="demo-bar__text">
        <strong>Demo</strong>
        <span className="demo-bar__detail">
          {' '}
          · {demoFleet(appType).title}: simulated devices, kept in this browser only
        </span>
      </span>
      <span className="demo-bar__actions">
        <Button size="sm" variant="ghost" onClick={() => void reset()} busy={resetting}>
          Reset demo
        </Button>
        <Button size="sm" variant="secondary" onClick={exit}>
          Exit demo
        </Button>
      </span>
    </div>
  );
}
