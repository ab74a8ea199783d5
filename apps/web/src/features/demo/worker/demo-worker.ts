/// <reference lib="webworker" />
import { ClientAction } from '@fieldlink/api/realtime';
import { Value } from '@sinclair/typebox/value';
import { DemoFleetSimulation } from './demo-fleet-simulation';
import type { FromWorker, ToWorker } from './protocol';

/**
 * The demo's simulation worker: the plant models of the demo fleet run here at 1 Hz, off the main
 * thread, and their values reach the console as the real-time channel's actions.
 */

declare const self: DedicatedWorkerGlobalScope;

const TICK_MS = 1000;
let fleet: DemoFleetSimulation | null = null;

function post(message: FromWorker): void {
  self.postMessage(message);
}

function sendActions(actions: readonly unknown[]): void {
  if (actions.length > 0) post({ type: 'socket', frames: actions.map((action) => JSON.stringify(action)) });
}

self.onmessage = (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  switch (message.type) {
    case 'start':
      fleet = new DemoFleetSimulation(message.devices, message.historyStartMs);
      // One message a tick for the whole fleet: the page spreads its frames over animation frames.
      setInterval(() => sendActions(fleet!.tick(Date.now()).flat()), TICK_MS);
      return;
    case 'socket': {
      // Checked as the server checks what a socket sends: a malformed request changes nothing.
      let action: unknown;
      try {
        action = JSON.parse(message.frame);
      } catch {
        return;
      }
      if (!fleet || !Value.Check(ClientAction, action)) return;
      sendActions(fleet.request(action, Date.now()));
      return;
    }
    case 'ask': {
      if (!fleet) return;
      const { question } = message;
      const answer = question.kind === 'snapshot' ? fleet.snapshots(question.thingNames) : fleet.logs(question);
      post({ type: 'answer', id: message.id, answer });
      return;
    }
  }
};
