import type { SocketLike } from '../../../lib/realtime/realtime-client';
import type { Answers, FromWorker, LogsQuestion, Question, SimulatedDevice, ToWorker } from '../worker/protocol';

const OPEN = 1;
const CLOSED = 3;
/** Time a task may spend handing frames on; the store change and render that follow add to it. */
const DELIVERY_BUDGET_MS = 8;
const HIDDEN_DELIVERY_MS = 100;

/**
 * The main thread's end of the simulation worker: questions answered by id, and sockets that carry
 * the real-time channel's frames to and from it exactly as a WebSocket carries them to the server.
 */
export class SimulationLink {
  private readonly worker: Worker;
  private nextId = 1;
  private readonly waiting = new Map<number, (answer: Answers[keyof Answers]) => void>();
  private readonly sockets = new Set<DemoSocket>();
  /** Frames from the worker not yet handed to the sockets, oldest first. */
  private frames: string[] = [];
  private deliveryScheduled = false;

  constructor(devices: SimulatedDevice[], historyStartMs: number) {
    this.worker = new Worker(new URL('../worker/demo-worker.ts', import.meta.url), {
      type: 'module',
      name: 'fieldlink-demo',
    });
    this.worker.onmessage = (event: MessageEvent<FromWorker>) => this.receive(event.data);
    this.send({ type: 'start', devices, historyStartMs });
  }

  snapshots(thingNames: string[]): Promise<Answers['snapshot']> {
    return this.ask({ kind: 'snapshot', thingNames }) as Promise<Answers['snapshot']>;
  }

  logs(question: Omit<LogsQuestion, 'kind'>): Promise<Answers['logs']> {
    return this.ask({ kind: 'logs', ...question }) as Promise<Answers['logs']>;
  }

  createSocket(): SocketLike {
    const socket = new DemoSocket(
      (frame) => this.send({ type: 'socket', frame }),
      () => this.sockets.delete(socket),
    );
    this.sockets.add(socket);
    return socket;
  }

  /** Stops the simulation (the demo was reset or ended). */
  terminate(): void {
    this.worker.terminate();
    this.frames = [];
    this.deliveryScheduled = false;
    for (const socket of this.sockets) socket.close();
  }

  private ask(question: Question) {
    const id = this.nextId++;
    return new Promise<Answers[keyof Answers]>((resolve) => {
      this.waiting.set(id, resolve);
      this.send({ type: 'ask', id, question });
    });
  }

  private send(message: ToWorker): void {
    this.worker.postMessage(message);
  }

  private receive(message: FromWorker): void {
    if (message.type === 'answer') {
      this.waiting.get(message.id)?.(message.answer);
      this.waiting.delete(message.id);
      return;
    }
    this.frames.push(...message.frames);
    this.scheduleDelivery();
  }

  /**
   * Frames reach the console at the next animation frame (or within 100 ms in a hidden tab), at most
   * `DELIVERY_BUDGET_MS` of them per task: the values of a whole fleet's tick are applied to the store
   * in one change per slice, and no task of the page grows with the fleet.
   */
  private scheduleDelivery(): void {
    if (this.deliveryScheduled) return;
    this.deliveryScheduled = true;
    const deliver = () => {
      if (!this.deliveryScheduled) return;
      this.deliveryScheduled = false;
      this.deliverSlice();
    };
    requestAnimationFrame(deliver);
    setTimeout(deliver, HIDDEN_DELIVERY_MS);
  }

  private deliverSlice(): void {
    const started = performance.now();
    let count = 0;
    while (count < this.frames.length && performance.now() - started < DELIVERY_BUDGET_MS) {
      const frame = this.frames[count++]!;
      for (const socket of this.sockets) socket.deliver(frame);
    }
    this.frames.splice(0, count);
    if (this.frames.length > 0) this.scheduleDelivery();
  }
}

/** A socket to the worker: opens at once, and hands each frame to `onmessage` as a WebSocket would. */
class DemoSocket implements SocketLike {
  readyState = 0;
  onopen: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;

  constructor(
    private readonly post: (frame: string) => void,
    private readonly forget: () => void,
  ) {
    queueMicrotask(() => {
      if (this.readyState !== 0) return;
      this.readyState = OPEN;
      this.onopen?.(new Event('open'));
    });
  }

  send(data: string): void {
    if (this.readyState === OPEN) this.post(data);
  }

  deliver(frame: string): void {
    if (this.readyState === OPEN) this.onmessage?.(new MessageEvent('message', { data: frame }));
  }

  close(code = 1000, reason = ''): void {
    if (this.readyState === CLOSED) return;
    this.readyState = CLOSED;
    this.forget();
    this.onclose?.(new CloseEvent('close', { code, reason }));
  }
}
