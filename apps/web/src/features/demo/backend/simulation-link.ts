import type { SocketLike } from '../../../lib/realtime/realtime-client';
import type { Answers, FromWorker, LogsQuestion, Question, SimulatedDevice, ToWorker } from '../worker/protocol';

const OPEN = 1;
const CLOSED = 3;

/**
 * The main thread's end of the simulation worker: questions answered by id, and sockets that carry
 * the real-time channel's frames to and from it exactly as a WebSocket carries them to the server.
 */
export class SimulationLink {
  private readonly worker: Worker;
  private nextId = 1;
  private readonly waiting = new Map<number, (answer: Answers[keyof Answers]) => void>();
  private readonly sockets = new Set<DemoSocket>();

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
    for (const socket of this.sockets) socket.deliver(message.frames);
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

  deliver(frames: readonly string[]): void {
    if (this.readyState !== OPEN) return;
    for (const frame of frames) this.onmessage?.(new MessageEvent('message', { data: frame }));
  }

  close(code = 1000, reason = ''): void {
    if (this.readyState === CLOSED) return;
    this.readyState = CLOSED;
    this.forget();
    this.onclose?.(new CloseEvent('close', { code, reason }));
  }
}
